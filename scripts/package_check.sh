#!/usr/bin/env bash
# Builds the .deb (packaging/: CPack, dependencies from dpkg-shlibdeps) from build/, installs
# it with apt, and tries the installed files as a user would: `fusescope --version`, a
# headless compile, report and workbench screenshot from /usr/bin/fusescope, the desktop entry
# (desktop-file-validate), the MIME types and the man page; then removes the package. Run as
# root after scripts/build.sh (CI runs it after the tests). Prints one line per check.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
if dpkg-query -W -f='${Status}' fusescope 2>/dev/null | grep -q "install ok installed"; then
  echo "package_check: a fusescope package is installed already; remove it first" >&2
  exit 1
fi
cmake --build build
rm -rf build/package
(cd build && cpack -G DEB -B "$root/build/package" >/dev/null)
deb=$(ls build/package/fusescope_*.deb)
echo "package: $deb ($(du -h "$deb" | cut -f1))"
echo "depends: $(dpkg-deb -f "$deb" Depends)"
dpkg-deb -f "$deb" Depends | grep -q "libmlir-19" || { echo "FAIL: no libmlir-19 in Depends" >&2; exit 1; }

tmp=$(mktemp -d)
cleanup() {
  apt-get remove -y fusescope >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
export DEBIAN_FRONTEND=noninteractive
apt-get install -y "$root/$deb" >/dev/null
installed=/usr/bin/fusescope
[[ -x $installed ]] || { echo "FAIL: $installed not installed" >&2; exit 1; }

version=$("$installed" --version)
echo "version: $version"
[[ $version == "fusescope $(sed -n 's/^project(fusescope VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt) ("* ]] ||
  { echo "FAIL: unexpected --version '$version'" >&2; exit 1; }
(cd "$tmp" && "$installed" compile sample:mlp -o mlp.fsdb >/dev/null &&
  "$installed" report mlp.fsdb -o mlp.html >/dev/null &&
  "$installed" run mlp.fsdb --device cpu >/dev/null)
[[ -s $tmp/mlp.html ]] || { echo "FAIL: no report" >&2; exit 1; }
echo "headless: compile, report and a run of compiled CPU kernels from the installed executable"
QT_QPA_PLATFORM=offscreen "$installed" gui sample:mlp --screenshot "$tmp/shot.png" >/dev/null 2>&1
[[ -s $tmp/shot.png ]] || { echo "FAIL: no screenshot" >&2; exit 1; }
echo "workbench: screenshot from the installed executable"
desktop-file-validate /usr/share/applications/fusescope.desktop
echo "desktop entry: valid"
grep -q 'glob pattern="\*.fsdb"' /usr/share/mime/packages/fusescope.xml
[[ -f /usr/share/icons/hicolor/scalable/apps/fusescope.svg ]]
grep -q '^\.B compile MODEL' /usr/share/man/man1/fusescope.1*
echo "MIME types, icon and man page: installed"
apt-get remove -y fusescope >/dev/null
[[ ! -e $installed ]] || { echo "FAIL: $installed left after removal" >&2; exit 1; }
echo "package_check: ok (installed, tried and removed)"
