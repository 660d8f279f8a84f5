//! The cross-validation of a grid: every configuration fitted on every fold of every repeat
//! (those a run directory already holds are read back, not fitted again), the fits run in
//! parallel on a rayon pool of `threads` (one task per fold and configuration, or per fold and
//! sparse path), and the table with its choice.

use std::collections::HashMap;
use std::time::Instant;

use rayon::prelude::*;

use crate::budget::Budget;
use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::learn::search_line::RunsLine;
use crate::learn::{LearnOptions, Method, WarmStartMode};
use crate::solver::Progress;
use crate::tune::fit::{fit_one, fit_path, Fit, FoldData};
use crate::tune::folds::{fold_rows, stratified_folds};
use crate::tune::grid::Config;
use crate::tune::score::TuneMetric;
use crate::tune::select::{self, ConfigRow};
use crate::tune::store::Store;

/// How to cross-validate.
#[derive(Debug, Clone)]
pub struct TuneOptions {
    pub folds: usize,
    pub repeats: usize,
    pub seed: u64,
    pub metric: TuneMetric,
    pub one_se: bool,
    /// The time of each fit, and the flag (Ctrl-C) on which the fits running stop, are not
    /// recorded, and no other starts.
    pub budget: Budget,
    /// Fits run at once.
    pub threads: usize,
    /// Solve the sparse configurations that differ only in their leaf penalty as one path per
    /// fold (otherwise each alone).
    pub share: bool,
    pub warm_start: WarmStartMode,
    /// Where the line of fits done of the total is drawn.
    pub progress: Progress,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            folds: 5,
            repeats: 1,
            seed: 0,
            metric: TuneMetric::Accuracy,
            one_se: false,
            budget: Budget::unlimited(),
            threads: 1,
            share: true,
            warm_start: WarmStartMode::Greedy,
            progress: Progress::Hidden,
        }
    }
}

impl TuneOptions {
    /// The options of each fit (one solver thread: the fits themselves run in parallel).
    pub fn learn_options(&self) -> LearnOptions {
        LearnOptions {
            budget: self.budget.clone(),
            threads: Some(1),
            warm_start: self.warm_start,
            certify: None,
            ..LearnOptions::default()
        }
    }

    fn interrupted(&self) -> bool {
        self.budget.interrupted()
    }
}

/// What a cross-validation found.
#[derive(Debug, Clone)]
pub struct TuneResult {
    /// One row per configuration, in grid order.
    pub rows: Vec<ConfigRow>,
    /// The row with the best mean, and the row chosen (the same without the one-SE rule).
    pub best: Option<usize>,
    pub chosen: Option<usize>,
    /// Every fit, those read back from the run directory included.
    pub fits: Vec<Fit>,
    pub fits_run: usize,
    pub fits_reused: usize,
    /// Whether Ctrl-C stopped the run before every fit was done.
    pub interrupted: bool,
    pub seconds: f64,
}

/// The fold of every row of `train` for each repeat.
pub fn assignments(train: &Dataset, options: &TuneOptions) -> Result<Vec<Vec<usize>>> {
    if options.repeats == 0 {
        return Err(Error::parameter("--repeats", "must be at least 1"));
    }
    (0..options.repeats)
        .map(|repeat| {
            stratified_folds(
                train.labels(),
                train.n_classes(),
                options.folds,
                options.seed,
                repeat,
            )
        })
        .collect()
}

/// The groups of candidates fitted together: sparse searches that differ only in their leaf
/// penalty (penalties increasing) when sharing, every other candidate alone.
fn groups(candidates: &[(Config, Method)], share: bool) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut keys: Vec<Config> = Vec::new();
    for (i, (config, method)) in candidates.iter().enumerate() {
        let path = share && matches!(method, Method::Sparse(_)) && config.leaf_penalty.is_some();
        let key = config.without_leaf_penalty();
        match keys.iter().position(|k| *k == key).filter(|_| path) {
            Some(g) => groups[g].push(i),
            None => {
                groups.push(vec![i]);
                // A key only sparse paths look up.
                keys.push(if path {
                    key
                } else {
                    Config {
                        leaf_penalty: Some(-1.0 - i as f64),
                        ..key
                    }
                });
            }
        }
    }
    for group in &mut groups {
        group.sort_by(|&a, &b| {
            let penalty = |i: usize| candidates[i].0.leaf_penalty.unwrap_or(0.0);
            penalty(a).total_cmp(&penalty(b))
        });
    }
    groups
}

/// Cross-validates `candidates` (configurations and their methods, the data prepared for
/// them) on `train`, storing each fit in `store` when given.
pub fn cross_validate(
    train: &Dataset,
    candidates: &[(Config, Method)],
    options: &TuneOptions,
    store: Option<&Store>,
) -> Result<TuneResult> {
    let start = Instant::now();
    let assignments = assignments(train, options)?;
    let existing: HashMap<(String, usize, usize), Fit> = store
        .map(|s| s.existing().iter().map(|f| (f.key(), f.clone())).collect())
        .unwrap_or_default();
    let groups = groups(candidates, options.share);
    let mut tasks: Vec<(usize, usize, Vec<usize>)> = Vec::new();
    for repeat in 0..options.repeats {
        for fold in 0..options.folds {
            for group in &groups {
                let missing: Vec<usize> = group
                    .iter()
                    .copied()
                    .filter(|&i| !existing.contains_key(&(candidates[i].0.label(), repeat, fold)))
                    .collect();
                if !missing.is_empty() {
                    tasks.push((repeat, fold, missing));
                }
            }
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.max(1))
        .build()
        .map_err(|e| Error::Internal(format!("no thread pool: {e}")))?;
    let total: usize = tasks.iter().map(|(_, _, members)| members.len()).sum();
    let line = RunsLine::start(
        "tune",
        total,
        options.budget.limit_seconds(),
        &options.progress,
    );
    let run = |(repeat, fold, members): &(usize, usize, Vec<usize>)| -> Result<Vec<Fit>> {
        if options.interrupted() {
            return Ok(Vec::new());
        }
        let (train_rows, validation_rows) = fold_rows(&assignments[*repeat], *fold);
        let (fold_train, validation) = (train.subset(&train_rows), train.subset(&validation_rows));
        let data = FoldData {
            repeat: *repeat,
            fold: *fold,
            train: &fold_train,
            validation: &validation,
        };
        let fitted = if members.len() > 1 {
            let group: Vec<(Config, Method)> =
                members.iter().map(|&i| candidates[i].clone()).collect();
            fit_path(&group, &data, &options.learn_options())
        } else {
            members
                .iter()
                .map(|&i| {
                    let (config, method) = &candidates[i];
                    fit_one(config, method, &data, options.learn_options())
                })
                .collect()
        };
        if options.interrupted() {
            return Ok(Vec::new());
        }
        let mut fits = Vec::with_capacity(fitted.len());
        for (mut fit, tree) in fitted {
            if let Some(store) = store {
                store.record(&mut fit, tree.as_ref())?;
            }
            fits.push(fit);
        }
        line.done(fits.len());
        Ok(fits)
    };
    let new: Vec<Vec<Fit>> =
        pool.install(|| tasks.par_iter().map(run).collect::<Result<Vec<Vec<Fit>>>>())?;
    drop(line);
    let fits_run: usize = new.iter().map(Vec::len).sum();
    let fits_reused = existing.len();
    let mut fits: Vec<Fit> = existing
        .into_values()
        .chain(new.into_iter().flatten())
        .collect();
    fits.sort_by(|a, b| {
        (a.repeat, a.fold)
            .cmp(&(b.repeat, b.fold))
            .then_with(|| a.config.cmp(&b.config))
    });
    let rows: Vec<ConfigRow> = candidates
        .iter()
        .map(|(config, _)| {
            let label = config.label();
            let mine: Vec<&Fit> = fits.iter().filter(|f| f.config == label).collect();
            select::row(config, &mine, options.metric)
        })
        .collect();
    let expected = candidates.len() * options.folds * options.repeats;
    Ok(TuneResult {
        best: select::best(&rows),
        chosen: select::choose(&rows, options.one_se),
        rows,
        interrupted: options.interrupted() || fits.len() < expected,
        fits,
        fits_run,
        fits_reused,
        seconds: start.elapsed().as_secs_f64(),
    })
}
