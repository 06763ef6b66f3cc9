//! Causes as every report shows them: the findings that share a `cause` id
//! (`rules::cause`), gathered over the whole scan in the order their first
//! instance was met. A person acts on a cause; the instances say where.

use crate::rules::{Finding, Severity};
use crate::source::SourceStatus;
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::collections::BTreeSet;

/// One cause, with what its instances add up to.
#[derive(Debug, Clone, Serialize)]
pub struct Cause {
    pub id: String,
    pub rule: String,
    pub rule_id: String,
    pub severity: Severity,
    /// The message of the instance shown (`shown`).
    pub message: String,
    pub help: String,
    /// The instance a person is shown: one with its MSL line on disk if
    /// any has it, else one whose IR line is on disk, else the first.
    #[serde(skip)]
    pub shown: Finding,
    /// Where `shown` is: its MSL location when known, its IR otherwise.
    pub location: CauseLocation,
    pub instances: usize,
    /// Files with an instance.
    pub files: usize,
    /// The entry points that reach an instance, sorted.
    pub kernels: BTreeSet<String>,
    /// The functions the instances are in, sorted.
    pub functions: BTreeSet<String>,
    pub cycles_per_execution: Option<u32>,
    /// `cycles_per_execution` × instances: for ranking, not a runtime.
    pub estimated_cycles: Option<u64>,
    /// The highest rank of an instance (severity, then loop depth).
    pub rank: u32,
    /// Every instance's place, the shown one first (`path:line`, MSL when
    /// known): SARIF's related locations.
    #[serde(skip)]
    pub places: Vec<Place>,
    /// Files met so far, to count `files`.
    #[serde(skip)]
    file_set: BTreeSet<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CauseLocation {
    pub function: String,
    pub source: Option<crate::source::SourceLocation>,
    pub ir: crate::rules::IrLocation,
}

/// One instance's place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub path: String,
    /// 0 when the line means nothing to a person (a binary input's IR).
    pub line: u32,
    pub column: u32,
}

impl Place {
    fn of(f: &Finding) -> Place {
        match &f.source {
            Some(s) if s.status != SourceStatus::NotFound => Place {
                path: s.path.clone(),
                line: s.line,
                column: s.column,
            },
            _ => Place {
                path: f.ir.path.to_string(),
                line: if f.ir.on_disk { f.ir.line } else { 0 },
                column: 0,
            },
        }
    }
}

/// How good an instance is to show: higher is better. An IR line on disk
/// breaks ties, so that the IR named beside an MSL line can be opened.
fn showable(f: &Finding) -> u8 {
    let source = match f.source.as_ref().map(|s| s.status) {
        Some(SourceStatus::Exact) => 3,
        Some(SourceStatus::Approximate) => 2,
        Some(SourceStatus::Stale) => 1,
        _ => 0,
    };
    source * 2 + u8::from(f.ir.on_disk)
}

/// Every cause of a scan, in the order met.
#[derive(Default)]
pub struct Causes {
    at: FxHashMap<String, usize>,
    list: Vec<Cause>,
}

impl Causes {
    /// Counts one more instance, of `file`.
    pub fn add(&mut self, file: &str, f: &Finding) {
        // Names are copied only when new: most instances repeat them.
        let index = match self.at.get(&f.cause) {
            Some(&index) => index,
            None => {
                self.list.push(Cause::new(f));
                self.at.insert(f.cause.clone(), self.list.len() - 1);
                self.list.len() - 1
            }
        };
        let Some(c) = self.list.get_mut(index) else {
            return;
        };
        if c.instances > 0 {
            if showable(f) > showable(&c.shown) {
                c.show(f);
            }
            let place = Place::of(f);
            if !c.places.contains(&place) {
                c.places.push(place);
            }
        }
        c.instances += 1;
        if !c.file_set.contains(file) {
            c.file_set.insert(file.to_string());
            c.files += 1;
        }
        for k in f.kernels.iter() {
            if !c.kernels.contains(k) {
                c.kernels.insert(k.clone());
            }
        }
        if !c.functions.contains(&*f.function) {
            c.functions.insert(f.function.to_string());
        }
        if let (Some(total), Some(each)) = (&mut c.estimated_cycles, c.cycles_per_execution) {
            *total += u64::from(each);
        }
        c.rank = c.rank.max(f.rank);
    }

    pub fn list(&self) -> &[Cause] {
        &self.list
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

impl Cause {
    fn new(f: &Finding) -> Cause {
        let cycles = f.cycles;
        let mut c = Cause {
            id: f.cause.clone(),
            rule: f.rule.to_string(),
            rule_id: f.rule_id.to_string(),
            severity: f.severity,
            message: String::new(),
            help: String::new(),
            shown: f.clone(),
            location: CauseLocation {
                function: String::new(),
                source: None,
                ir: f.ir.clone(),
            },
            instances: 0,
            files: 0,
            kernels: BTreeSet::new(),
            functions: BTreeSet::new(),
            cycles_per_execution: cycles,
            estimated_cycles: cycles.map(|_| 0),
            rank: f.rank,
            places: vec![Place::of(f)],
            file_set: BTreeSet::new(),
        };
        c.show(f);
        c
    }

    /// Makes `f` the instance shown.
    fn show(&mut self, f: &Finding) {
        self.message = f.message.clone();
        self.help = f.help.to_string();
        self.location = CauseLocation {
            function: f.function.to_string(),
            source: f.source.clone(),
            ir: f.ir.clone(),
        };
        let place = Place::of(f);
        self.places.retain(|p| *p != place);
        self.places.insert(0, place);
        self.shown = f.clone();
    }
}
