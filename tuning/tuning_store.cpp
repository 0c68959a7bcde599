#include "tuning/tuning_store.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "recording/kill_point.h"
#include "recording/number_list.h"
#include "recording/sqlite_database.h"

namespace fusescope::tuning {
namespace {

using recording::SqliteDatabase;

constexpr std::string_view kTuningSchema = R"sql(
CREATE TABLE IF NOT EXISTS tuning_runs(
  run_id INTEGER PRIMARY KEY, snapshot_index INTEGER NOT NULL, strategy TEXT NOT NULL,
  space TEXT NOT NULL, executor TEXT NOT NULL, machine TEXT NOT NULL, settings TEXT NOT NULL,
  created_at TEXT NOT NULL, composed INTEGER NOT NULL, module_speedup REAL NOT NULL);
CREATE TABLE IF NOT EXISTS tuning_trials(
  run_id INTEGER NOT NULL, position INTEGER NOT NULL, kernel TEXT NOT NULL,
  config TEXT NOT NULL, is_default INTEGER NOT NULL, ok INTEGER NOT NULL, error TEXT NOT NULL,
  samples_us TEXT NOT NULL, baseline_samples_us TEXT NOT NULL, median_us REAL NOT NULL, min_us REAL NOT NULL, max_us REAL NOT NULL,
  baseline_us REAL NOT NULL, module_us REAL NOT NULL, module_baseline_us REAL NOT NULL,
  verdict TEXT NOT NULL, max_abs_error REAL NOT NULL, compile_seconds REAL NOT NULL,
  worker TEXT NOT NULL, attempts INTEGER NOT NULL,
  PRIMARY KEY(run_id, position)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tuning_composition(
  run_id INTEGER NOT NULL, position INTEGER NOT NULL, kernel TEXT NOT NULL,
  config TEXT NOT NULL, kernel_gain_us REAL NOT NULL, ok INTEGER NOT NULL, error TEXT NOT NULL,
  module_us REAL NOT NULL, module_before_us REAL NOT NULL, pairs INTEGER NOT NULL,
  pairs_faster INTEGER NOT NULL, kept INTEGER NOT NULL,
  PRIMARY KEY(run_id, position)) WITHOUT ROWID;
)sql";

}  // namespace

StatusOr<int64_t> AddTuningRun(const std::string& path, const TuningRun& run) {
  {
    auto db = SqliteDatabase::Open(path, SqliteDatabase::Mode::kReadOnly);
    if (!db.ok()) return Status::Error(path + ": " + db.message());
    auto snapshots = (*db)->QueryInt("SELECT count(*) FROM snapshots");
    if (!snapshots.ok())
      return Status::Error(path + ": not a Fusescope recording (" + snapshots.message() + ")");
    if (run.snapshot_index < 0 || run.snapshot_index >= *snapshots)
      return Status::Error(path + ": the tuning run is of snapshot " +
                           std::to_string(run.snapshot_index) + ", the recording has " +
                           std::to_string(*snapshots));
  }
  auto writable = SqliteDatabase::Open(path, SqliteDatabase::Mode::kCreate);
  if (!writable.ok()) return Status::Error(path + ": " + writable.message());
  SqliteDatabase& out = **writable;
  auto write = [&]() -> StatusOr<int64_t> {
    FS_RETURN_IF_ERROR(out.Execute(kTuningSchema));
    auto next = out.QueryInt("SELECT coalesce(max(run_id), 0) + 1 FROM tuning_runs");
    if (!next.ok()) return next.status();
    auto insert =
        out.Prepare("INSERT INTO tuning_runs VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
    if (!insert.ok()) return insert.status();
    insert->Bind(1, *next);
    insert->Bind(2, run.snapshot_index);
    insert->Bind(3, std::string_view(run.strategy));
    insert->Bind(4, std::string_view(run.space));
    insert->Bind(5, std::string_view(run.executor));
    insert->Bind(6, std::string_view(run.machine));
    insert->Bind(7, std::string_view(run.settings));
    insert->Bind(8, std::string_view(run.created_at));
    insert->Bind(9, run.composed);
    insert->Bind(10, run.module_speedup);
    FS_RETURN_IF_ERROR(insert->Run());
    auto row = out.Prepare(
        "INSERT INTO tuning_trials VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
        "?14, ?15, ?16, ?17, ?18, ?19, ?20)");
    if (!row.ok()) return row.status();
    for (size_t i = 0; i < run.trials.size(); ++i) {
      const Trial& trial = run.trials[i];
      row->Reset();
      row->Bind(1, *next);
      row->Bind(2, static_cast<int64_t>(i));
      row->Bind(3, std::string_view(trial.kernel));
      row->Bind(4, std::string_view(trial.config));
      row->Bind(5, trial.is_default);
      row->Bind(6, trial.ok);
      row->Bind(7, std::string_view(trial.error));
      const std::string samples = recording::JoinNumberList(trial.samples_us);
      row->Bind(8, std::string_view(samples));
      const std::string baseline_samples = recording::JoinNumberList(trial.baseline_samples_us);
      row->Bind(9, std::string_view(baseline_samples));
      row->Bind(10, trial.median_us);
      row->Bind(11, trial.min_us);
      row->Bind(12, trial.max_us);
      row->Bind(13, trial.baseline_us);
      row->Bind(14, trial.module_us);
      row->Bind(15, trial.module_baseline_us);
      row->Bind(16, std::string_view(trial.verdict));
      row->Bind(17, trial.max_abs_error);
      row->Bind(18, trial.compile_seconds);
      row->Bind(19, std::string_view(trial.worker));
      row->Bind(20, trial.attempts);
      FS_RETURN_IF_ERROR(row->Run());
      if (i == run.trials.size() / 2) recording::KillPoint("tuning-write");
    }
    auto step_row = out.Prepare(
        "INSERT INTO tuning_composition VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
        "?12)");
    if (!step_row.ok()) return step_row.status();
    for (size_t i = 0; i < run.composition.size(); ++i) {
      const CompositionStep& step = run.composition[i];
      step_row->Reset();
      step_row->Bind(1, *next);
      step_row->Bind(2, static_cast<int64_t>(i));
      step_row->Bind(3, std::string_view(step.kernel));
      step_row->Bind(4, std::string_view(step.config));
      step_row->Bind(5, step.kernel_gain_us);
      step_row->Bind(6, step.ok);
      step_row->Bind(7, std::string_view(step.error));
      step_row->Bind(8, step.module_us);
      step_row->Bind(9, step.module_before_us);
      step_row->Bind(10, step.pairs);
      step_row->Bind(11, step.pairs_faster);
      step_row->Bind(12, step.kept);
      FS_RETURN_IF_ERROR(step_row->Run());
    }
    return *next;
  };
  StatusOr<int64_t> id = out.InTransaction(write);
  if (!id.ok()) {
    return Status::Error(path + ": tuning run not saved, the recording is unchanged (" +
                         id.message() + ")");
  }
  return id;
}

Status DropKeptConfigurations(const std::string& path, int64_t run_id, double module_speedup) {
  if (!std::filesystem::exists(path)) return Status::Error(path + ": no such file");
  auto writable = SqliteDatabase::Open(path, SqliteDatabase::Mode::kCreate);
  if (!writable.ok()) return Status::Error(path + ": " + writable.message());
  SqliteDatabase& out = **writable;
  auto write = [&]() -> Status {
    auto found =
        out.QueryInt("SELECT count(*) FROM tuning_runs WHERE run_id = " + std::to_string(run_id));
    if (!found.ok()) return found.status();
    if (*found == 0) return Status::Error("no tuning run " + std::to_string(run_id));
    auto steps = out.Prepare("UPDATE tuning_composition SET kept = 0 WHERE run_id = ?1");
    if (!steps.ok()) return steps.status();
    steps->Bind(1, run_id);
    FS_RETURN_IF_ERROR(steps->Run());
    auto speed = out.Prepare("UPDATE tuning_runs SET module_speedup = ?2 WHERE run_id = ?1");
    if (!speed.ok()) return speed.status();
    speed->Bind(1, run_id);
    speed->Bind(2, module_speedup);
    return speed->Run();
  };
  Status written = out.InTransaction(write);
  if (!written.ok()) {
    return Status::Error(path + ": " + written.message() + "; the recording is unchanged");
  }
  return Status::Ok();
}

StatusOr<std::vector<TuningRun>> LoadTuningRuns(const std::string& path) {
  auto db = SqliteDatabase::Open(path, SqliteDatabase::Mode::kReadOnly);
  if (!db.ok()) return Status::Error(path + ": " + db.message());
  auto has = (*db)->QueryInt(
      "SELECT count(*) FROM sqlite_schema WHERE type='table' AND name IN ('tuning_runs', "
      "'tuning_trials', 'tuning_composition')");
  if (!has.ok()) return Status::Error(path + ": " + has.message());
  std::vector<TuningRun> runs;
  if (*has == 0) return runs;
  if (*has < 3)
    return Status::Error(path + ": its tuning tables are incomplete (" + std::to_string(*has) +
                         " of 3)");
  std::map<int64_t, size_t> index;
  {
    auto rows = (*db)->Prepare(
        "SELECT run_id, snapshot_index, strategy, space, executor, machine, settings, created_at, "
        "composed, module_speedup FROM tuning_runs ORDER BY run_id");
    if (!rows.ok()) return Status::Error(path + ": " + rows.message());
    for (;;) {
      auto more = rows->Step();
      if (!more.ok()) return Status::Error(path + ": " + more.message());
      if (!*more) break;
      TuningRun run;
      run.run_id = rows->Int(0);
      run.snapshot_index = rows->Int(1);
      run.strategy = std::string(rows->Text(2));
      run.space = std::string(rows->Text(3));
      run.executor = std::string(rows->Text(4));
      run.machine = std::string(rows->Text(5));
      run.settings = std::string(rows->Text(6));
      run.created_at = std::string(rows->Text(7));
      run.composed = rows->Bool(8);
      run.module_speedup = rows->Double(9);
      index[run.run_id] = runs.size();
      runs.push_back(std::move(run));
    }
  }
  auto rows = (*db)->Prepare(
      "SELECT run_id, kernel, config, is_default, ok, error, samples_us, median_us, min_us, "
      "max_us, baseline_us, module_us, module_baseline_us, verdict, max_abs_error, "
      "compile_seconds, worker, attempts, baseline_samples_us FROM tuning_trials "
      "ORDER BY run_id, position");
  if (!rows.ok()) return Status::Error(path + ": " + rows.message());
  for (;;) {
    auto more = rows->Step();
    if (!more.ok()) return Status::Error(path + ": " + more.message());
    if (!*more) break;
    auto it = index.find(rows->Int(0));
    if (it == index.end())
      return Status::Error(path + ": a tuning trial of a run that does not exist (" +
                           std::to_string(rows->Int(0)) + ")");
    Trial trial;
    trial.kernel = std::string(rows->Text(1));
    trial.config = std::string(rows->Text(2));
    trial.is_default = rows->Bool(3);
    trial.ok = rows->Bool(4);
    trial.error = std::string(rows->Text(5));
    auto samples = recording::SplitNumberList(rows->Text(6));
    if (!samples.ok())
      return Status::Error(path + ": tuning trial of " + trial.kernel + ": " + samples.message());
    trial.samples_us = std::move(*samples);
    trial.median_us = rows->Double(7);
    trial.min_us = rows->Double(8);
    trial.max_us = rows->Double(9);
    trial.baseline_us = rows->Double(10);
    trial.module_us = rows->Double(11);
    trial.module_baseline_us = rows->Double(12);
    trial.verdict = std::string(rows->Text(13));
    trial.max_abs_error = rows->Double(14);
    trial.compile_seconds = rows->Double(15);
    trial.worker = std::string(rows->Text(16));
    trial.attempts = rows->Int(17);
    auto baseline_samples = recording::SplitNumberList(rows->Text(18));
    if (!baseline_samples.ok())
      return Status::Error(path + ": tuning trial of " + trial.kernel + ": " +
                           baseline_samples.message());
    trial.baseline_samples_us = std::move(*baseline_samples);
    runs[it->second].trials.push_back(std::move(trial));
  }
  auto steps = (*db)->Prepare(
      "SELECT run_id, kernel, config, kernel_gain_us, ok, error, module_us, module_before_us, "
      "pairs, pairs_faster, kept FROM tuning_composition ORDER BY run_id, position");
  if (!steps.ok()) return Status::Error(path + ": " + steps.message());
  for (;;) {
    auto more = steps->Step();
    if (!more.ok()) return Status::Error(path + ": " + more.message());
    if (!*more) break;
    auto it = index.find(steps->Int(0));
    if (it == index.end())
      return Status::Error(path + ": a composition step of a tuning run that does not exist (" +
                           std::to_string(steps->Int(0)) + ")");
    CompositionStep step;
    step.kernel = std::string(steps->Text(1));
    step.config = std::string(steps->Text(2));
    step.kernel_gain_us = steps->Double(3);
    step.ok = steps->Bool(4);
    step.error = std::string(steps->Text(5));
    step.module_us = steps->Double(6);
    step.module_before_us = steps->Double(7);
    step.pairs = steps->Int(8);
    step.pairs_faster = steps->Int(9);
    step.kept = steps->Bool(10);
    runs[it->second].composition.push_back(std::move(step));
  }
  return runs;
}

StatusOr<std::map<std::string, TunedKernel>> BestConfigs(const std::string& path,
                                                         int64_t snapshot_index) {
  auto runs = LoadTuningRuns(path);
  if (!runs.ok()) return runs.status();
  std::map<std::string, TunedKernel> best;
  for (const TuningRun& run : *runs) {
    if (run.snapshot_index != snapshot_index) continue;
    const auto set = [&](const std::string& kernel, const KernelBest& result, const Trial* chosen,
                         const std::string& config_text) -> Status {
      // The latest run that tuned a kernel decides it.
      TunedKernel entry;
      entry.run_id = run.run_id;
      entry.default_median_us = result.baseline ? result.baseline->median_us : 0;
      entry.median_us = entry.default_median_us;
      entry.config_text = "default";
      if (!config_text.empty()) {
        auto config = runtime::KernelConfig::Parse(config_text);
        if (!config.ok())
          return Status::Error(path + ": tuning run " + std::to_string(run.run_id) + ", kernel " +
                               kernel + ": " + config.message());
        entry.config = *config;
        entry.config_text = config_text;
        if (chosen) {
          entry.median_us = chosen->median_us;
          entry.relative = RelativeTime(*chosen, result.baseline);
        }
      }
      best[kernel] = std::move(entry);
      return Status::Ok();
    };
    const std::map<std::string, KernelBest> per_kernel = BestPerKernel(run.trials);
    if (run.composed) {
      // A composed run applies its kept steps; its other kernels go back to the default.
      for (const auto& [kernel, result] : per_kernel)
        FS_RETURN_IF_ERROR(set(kernel, result, nullptr, ""));
      for (const CompositionStep& step : run.composition) {
        if (!step.kept) continue;
        const Trial* trial = nullptr;
        for (const Trial& candidate : run.trials)
          if (candidate.kernel == step.kernel && candidate.config == step.config && candidate.ok)
            trial = &candidate;
        auto it = per_kernel.find(step.kernel);
        const KernelBest none;
        FS_RETURN_IF_ERROR(
            set(step.kernel, it == per_kernel.end() ? none : it->second, trial, step.config));
      }
      continue;
    }
    for (const auto& [kernel, result] : per_kernel) {
      if (!result.best) continue;
      FS_RETURN_IF_ERROR(set(kernel, result, result.best,
                             result.best->is_default ? std::string() : result.best->config));
    }
  }
  return best;
}

}  // namespace fusescope::tuning
