#include "views/qt/run/run_result.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <limits>

namespace fusescope::views {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("RunResult", text); }

// The commands write the largest finite double for an infinite error.
double Error(const QJsonValue& value) {
  const double error = value.toDouble();
  return error >= 1e308 ? std::numeric_limits<double>::infinity() : error;
}

int64_t Int(const QJsonValue& value) { return value.toInteger(); }

RunReport ReadRun(const QJsonObject& json) {
  RunReport report;
  report.model = json["model"].toString();
  if (json.contains("pass")) report.pass = Int(json["pass"]);
  report.seconds = json["seconds"].toDouble();
  if (json.contains("original_seconds"))
    report.original_seconds = json["original_seconds"].toDouble();
  if (json.contains("match")) report.match = json["match"].toBool();
  report.verdict = json["verdict"].toString();
  for (const QJsonValue& value : json["outputs"].toArray()) {
    const QJsonObject output = value.toObject();
    RunOutput row;
    row.index = Int(output["index"]);
    row.shape = output["shape"].toString();
    row.compared = output.contains("ok");
    row.same_shape = output["same_shape"].toBool(true);
    row.max_abs_error = Error(output["max_abs_error"]);
    row.max_rel_error = Error(output["max_rel_error"]);
    row.ok = output["ok"].toBool(true);
    row.verdict = output["verdict"].toString();
    if (output.contains("to_exact")) row.to_exact = Error(output["to_exact"]);
    if (output.contains("original_to_exact"))
      row.original_to_exact = Error(output["original_to_exact"]);
    report.outputs.push_back(row);
  }
  return report;
}

BisectReport ReadBisect(const QJsonObject& json) {
  BisectReport report;
  report.model = json["model"].toString();
  report.rtol = json["rtol"].toDouble();
  report.atol = json["atol"].toDouble();
  report.outputs = Int(json["outputs"]);
  report.input_seconds = json["input_seconds"].toDouble();
  const QJsonValue first_bad = json["first_bad_pass"];
  for (const QJsonValue& value : json["passes"].toArray()) {
    const QJsonObject pass = value.toObject();
    BisectPass row;
    row.index = Int(pass["index"]);
    row.name = pass["name"].toString();
    row.ran = pass["ran"].toBool();
    row.reused = pass["reused"].toBool();
    row.ok = pass["ok"].toBool();
    row.verdict = pass["verdict"].toString();
    row.max_abs_error = Error(pass["max_abs_error"]);
    row.max_rel_error = Error(pass["max_rel_error"]);
    row.to_exact = Error(pass["to_exact"]);
    row.input_to_exact = Error(pass["input_to_exact"]);
    row.seconds = pass["seconds"].toDouble();
    row.error = pass["error"].toString();
    if (first_bad.isObject() && report.first_bad < 0 && row.index == Int(first_bad["index"])) {
      report.first_bad = static_cast<int>(report.passes.size());
    }
    report.passes.push_back(row);
  }
  return report;
}

ProfileReport ReadProfile(const QJsonObject& json) {
  ProfileReport report;
  report.module = json["module"].toString();
  report.device = json["device"].toString();
  report.snapshot = Int(json["snapshot"]);
  const QJsonObject latency = json["latency_us"].toObject();
  report.runs = Int(latency["count"]);
  report.p50_us = latency["p50"].toDouble();
  report.p95_us = latency["p95"].toDouble();
  report.p99_us = latency["p99"].toDouble();
  report.runs_per_second = json["runs_per_second"].toDouble();
  report.kernels = json["kernels"].toArray().size();
  return report;
}

// The member every answer of its kind has; an answer without it is not that command's.
const char* RequiredKey(RunRequest::Kind kind) {
  switch (kind) {
    case RunRequest::Kind::kRun:
      return "outputs";
    case RunRequest::Kind::kBisect:
      return "passes";
    case RunRequest::Kind::kProfile:
      return "latency_us";
  }
  return "";
}

}  // namespace

QString RunResult::Parse(const RunRequest& request, const QByteArray& json, RunResult* result) {
  QJsonParseError error{};
  const QJsonDocument document = QJsonDocument::fromJson(json, &error);
  if (error.error != QJsonParseError::NoError) {
    return json.trimmed().isEmpty() ? tr("the worker wrote no result")
                                    : tr("the worker's result is not JSON (%1 at offset %2)")
                                          .arg(error.errorString())
                                          .arg(error.offset);
  }
  const QJsonObject object = document.object();
  const char* key = RequiredKey(request.kind);
  if (!object.contains(QLatin1String(key))) {
    return tr("the worker's result has no \"%1\"").arg(QLatin1String(key));
  }
  result->request = request;
  switch (request.kind) {
    case RunRequest::Kind::kRun:
      result->run = ReadRun(object);
      break;
    case RunRequest::Kind::kBisect:
      result->bisect = ReadBisect(object);
      break;
    case RunRequest::Kind::kProfile:
      result->profile = ReadProfile(object);
      break;
  }
  return {};
}

}  // namespace fusescope::views
