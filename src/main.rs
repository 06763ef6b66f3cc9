use air_scan::rules::RuleSet;
use air_scan::{report, scan};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    Text,
    Json,
    /// SARIF 2.1.0, for GitHub code scanning; URIs relative to the current directory.
    Sarif,
    /// One self-contained HTML page: summary, causes, kernels, files not read.
    Html,
}

/// The least severe finding that makes the exit code 1.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum FailOn {
    Error,
    Warning,
    Note,
    Never,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Color {
    /// Colour when stdout is a terminal and NO_COLOR is not set.
    Auto,
    Always,
    Never,
}

impl Color {
    fn enabled(self) -> bool {
        use std::io::IsTerminal;
        match self {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => {
                std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }
}

/// What `--help` ends with.
const EXIT_CODES: &str = "\
Exit codes:
  0  nothing at or above --fail-on was found
  1  a finding at or above --fail-on (default: error) was reported
  2  a usage error, a tool named on the command line that does not work, a
     file that could not be read or had reader errors, or nothing analysed
     (no IR file found, or only .metal files and no compiler); 2 wins over 1";

/// Finds Apple-GPU hazards in the LLVM IR (AIR) that Apple's Metal compiler
/// emits, per file and per kernel.
#[derive(Parser, Debug)]
#[command(
    name = "air-scan",
    version,
    about,
    args_conflicts_with_subcommands = true,
    after_help = EXIT_CODES
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    scan: ScanArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List every rule.
    Rules {
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Compare two IR files or directories kernel by kernel (e.g. -O0 against -O2).
    Diff(air_scan::diff::DiffArgs),
    /// Print an `.air`, `.bc` or `.metallib` file as LLVM IR text (the text
    /// IR line numbers of findings refer to), read without LLVM.
    Dis {
        /// The file to print.
        file: PathBuf,
        /// Use this llvm-dis instead of the built-in reader.
        #[arg(long, value_name = "PATH")]
        llvm_dis: Option<PathBuf>,
    },
    /// Print a rule's rationale and fix.
    Explain {
        /// The rule's name (e.g. divide-by-uniform) or id (e.g. AIR001).
        rule: String,
        #[command(flatten)]
        rules: RuleArgs,
    },
}

#[derive(Args, Debug)]
struct RuleArgs {
    /// A folder of extra patterns (*.toml) to load; may be repeated.
    #[arg(long = "patterns", value_name = "DIR")]
    patterns: Vec<PathBuf>,
    /// Run only these rules (names or ids, comma-separated).
    #[arg(long, value_delimiter = ',')]
    select: Vec<String>,
    /// Do not run these rules (names or ids, comma-separated).
    #[arg(long, value_delimiter = ',')]
    ignore: Vec<String>,
}

#[derive(Args, Debug)]
struct ScanArgs {
    /// Files and directories to scan (directories recursively: `.ll`,
    /// `.air`, `.metallib` and `.metal` files, any case, leaving out what
    /// .gitignore files and `--exclude` name, and hidden files). A file is
    /// read as what its bytes hold, whatever its name.
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text, help_heading = "Output")]
    format: Format,

    /// Exit with 1 when a finding at or above this severity is reported.
    #[arg(long, value_enum, default_value_t = FailOn::Error, help_heading = "Output")]
    fail_on: FailOn,

    /// Report only findings not in this earlier `--format json` report
    /// (files matched relative to the folder scanned).
    #[arg(long, value_name = "REPORT", help_heading = "Output")]
    baseline: Option<PathBuf>,

    /// List the findings that `// air-scan: ignore[...]` comments silenced
    /// (in SARIF: as results with `suppressions`).
    #[arg(long, help_heading = "Output")]
    show_suppressed: bool,

    /// The folder JSON paths and SARIF artifact URIs are relative to, the
    /// same in both (default: the current directory, which should be the
    /// repository root for GitHub code scanning).
    #[arg(
        long,
        visible_alias = "report-root",
        value_name = "DIR",
        help_heading = "Output"
    )]
    sarif_root: Option<PathBuf>,

    /// When to colour the text output.
    #[arg(long, value_enum, default_value_t = Color::Auto, help_heading = "Output")]
    color: Color,

    /// Text: also list each file's kernels, their arguments and function
    /// constants.
    #[arg(long, help_heading = "Output")]
    inventory: bool,

    /// Text: print only the closing summary, not each cause.
    #[arg(long, short = 'q', help_heading = "Output")]
    quiet: bool,

    /// Leave out what matches this glob (gitignore syntax, below each
    /// directory scanned, e.g. `vendor/` or `*.O0.ll`); may be repeated.
    #[arg(long, value_name = "GLOB", help_heading = "Input")]
    exclude: Vec<String>,

    /// Files read in parallel (default: one per core).
    #[arg(long, short = 'j', help_heading = "Input")]
    jobs: Option<usize>,

    /// The llvm-dis to turn `.air` and `.metallib` bitcode into text
    /// (default: the newest `llvm-dis-NN` on PATH, then `llvm-dis`).
    #[arg(long, value_name = "PATH", help_heading = "Input")]
    llvm_dis: Option<PathBuf>,

    /// Write the IR text of every module read from an `.air`, `.bc` or
    /// `.metallib` into DIR (made if missing), so that the IR line a
    /// finding names can be opened: `lib.metallib:function` goes to
    /// `lib.metallib%3Afunction.ll` (bytes other than letters, digits and
    /// `_-+,=@.` written `%XX`).
    #[arg(long, value_name = "DIR", help_heading = "Output")]
    emit_ir: Option<PathBuf>,

    /// Where to look for the MSL files debug info names.
    #[arg(long, value_name = "DIR", help_heading = "Input")]
    source_root: Option<PathBuf>,

    /// The compiler driver for `.metal` files, called as `PATH metal ...`
    /// (default: `xcrun` on PATH; without one, `.metal` files are skipped).
    #[arg(long, value_name = "PATH", help_heading = ".metal sources")]
    xcrun: Option<PathBuf>,

    /// A flag for compiling `.metal` files (`-std=metal3.1`, `-Iinclude`,
    /// `-DNAME=1`, `-ffast-math`, ...), after those of `air-scan.toml`;
    /// may be repeated.
    #[arg(
        long = "metal-flag",
        value_name = "FLAG",
        allow_hyphen_values = true,
        help_heading = ".metal sources"
    )]
    metal_flags: Vec<String>,

    /// Optimization levels `.metal` files are compiled at (default: O0,O2,
    /// or `levels` in `air-scan.toml`).
    #[arg(
        long,
        value_name = "LEVELS",
        value_delimiter = ',',
        help_heading = ".metal sources"
    )]
    levels: Vec<String>,

    /// Where compiled `.metal` files are cached (default:
    /// `$XDG_CACHE_HOME/air-scan`, else `~/.cache/air-scan`).
    #[arg(long, value_name = "DIR", help_heading = ".metal sources")]
    cache_dir: Option<PathBuf>,

    /// Compile every `.metal` file anew, keeping nothing (wins over
    /// `--cache-dir`).
    #[arg(long, help_heading = ".metal sources")]
    no_cache: bool,

    #[command(flatten)]
    rules: RuleArgs,
}

/// The walk and `.metal` settings, checked before anything is scanned.
fn configure_inputs(config: &mut scan::ScanConfig<'_>, args: &ScanArgs) -> Result<(), String> {
    use air_scan::compile::xcrun::{self, Cache};
    use std::io::IsTerminal;
    config.walk = air_scan::input::WalkOptions::new(args.exclude.clone())?;
    xcrun::check_flags(&args.metal_flags).map_err(|e| format!("--metal-flag: {e}"))?;
    config.metal.flags = args.metal_flags.clone();
    config.metal.xcrun = args.xcrun.clone();
    if !args.levels.is_empty() {
        config.metal.levels =
            Some(xcrun::parse_levels(&args.levels).map_err(|e| format!("--levels: {e}"))?);
    }
    config.metal.cache = match (&args.cache_dir, args.no_cache) {
        (_, true) => Cache::Off,
        (Some(d), false) => Cache::Dir(d.clone()),
        (None, false) => Cache::default_dir().map_or(Cache::Off, Cache::Dir),
    };
    config.progress = std::io::stderr().is_terminal();
    if let Some(dir) = &args.emit_ir {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("--emit-ir: cannot make {}: {e}", dir.display()))?;
        config.emit_ir = Some(dir.clone());
    }
    Ok(())
}

fn load_rules(a: &RuleArgs) -> Result<RuleSet, String> {
    let dirs: Vec<&std::path::Path> = a.patterns.iter().map(PathBuf::as_path).collect();
    RuleSet::load(&dirs, &a.select, &a.ignore)
}

fn print(out: &str) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    if stdout
        .write_all(out.as_bytes())
        .and_then(|_| stdout.flush())
        .is_err()
    {
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}

/// `air-scan dis FILE`: each module's text; a metallib's modules one after
/// another, each starting with its `; ModuleID = 'lib.metallib:function'`.
fn dis(file: &std::path::Path, llvm_dis: Option<&std::path::Path>) -> ExitCode {
    use air_scan::compile;
    let tool = match llvm_dis.map(|p| compile::LlvmDis::find(Some(p))) {
        None => None,
        Some(Ok(t)) => Some(t),
        Some(Err(e)) => {
            eprintln!("air-scan: {e}");
            return ExitCode::from(2);
        }
    };
    let mut results = compile::disassemble_files_with(&[file], tool.as_ref());
    let modules = match results.pop() {
        Some(Ok(m)) => m,
        Some(Err(e)) => {
            eprintln!("air-scan: {e}");
            return ExitCode::from(2);
        }
        None => return ExitCode::from(2),
    };
    let mut code = ExitCode::SUCCESS;
    let mut out = String::new();
    for m in modules {
        match m.text {
            Ok(t) => out.push_str(&t),
            Err(e) => {
                eprintln!("air-scan: {e}");
                code = ExitCode::from(2);
            }
        }
    }
    if print(&out) != ExitCode::SUCCESS {
        return ExitCode::from(2);
    }
    code
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    if let Some(Command::Diff(d)) = &cli.command {
        let (out, code) = air_scan::diff::run(d);
        if print(&out) != ExitCode::SUCCESS {
            return ExitCode::from(2);
        }
        return ExitCode::from(code);
    }
    if let Some(Command::Dis { file, llvm_dis }) = &cli.command {
        return dis(file, llvm_dis.as_deref());
    }
    let rule_args = match &cli.command {
        Some(Command::Rules { rules }) | Some(Command::Explain { rules, .. }) => rules,
        None | Some(Command::Diff(_)) | Some(Command::Dis { .. }) => &cli.scan.rules,
    };
    let rules = match load_rules(rule_args) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("air-scan: {e}");
            return ExitCode::from(2);
        }
    };
    match &cli.command {
        Some(Command::Rules { .. }) => return print(&report::text::rules_list(&rules)),
        Some(Command::Explain { rule, .. }) => {
            let bad = &air_scan::suppress::BAD_SUPPRESSION_RULE;
            return match rules.find(rule) {
                Some(r) => print(&report::text::explain(r)),
                None if rule.eq_ignore_ascii_case(bad.name)
                    || rule.eq_ignore_ascii_case(bad.id) =>
                {
                    print(&report::text::explain_pseudo(bad))
                }
                None => {
                    eprintln!("air-scan: no rule is named '{rule}' (see `air-scan rules`)");
                    ExitCode::from(2)
                }
            };
        }
        None | Some(Command::Diff(_)) | Some(Command::Dis { .. }) => {}
    }
    let args = &cli.scan;
    if let Err(e) = check_project_rule_options(&args.paths) {
        eprintln!("air-scan: {e}");
        return ExitCode::from(2);
    }
    scan(args, &rules)
}

/// Reads the `air-scan.toml` governing each scanned path now, so that a bad
/// `[rules]` table there stops the scan before it starts. Each file then
/// runs the rules with the options of the file nearest above it
/// (`ScanConfig::project_rules`); one deeper in a folder that is bad fails
/// the files it governs.
fn check_project_rule_options(paths: &[PathBuf]) -> Result<(), String> {
    for p in paths {
        let dir = match p.is_dir() {
            true => p.as_path(),
            false => p.parent().unwrap_or(std::path::Path::new(".")),
        };
        scan::project_options(dir)?;
    }
    Ok(())
}

/// Every rule's name and id, whether `--select` and `--ignore` keep it or
/// not: a suppression may name any of them. Without either, those are the
/// rules `loaded` for the scan, not loaded a second time.
fn every_rule_name(args: &RuleArgs, loaded: &RuleSet) -> Vec<String> {
    let names = |set: &RuleSet| -> Vec<String> {
        set.rules
            .iter()
            .flat_map(|r| [r.pattern.name.clone(), r.pattern.id.clone()])
            .collect()
    };
    if args.select.is_empty() && args.ignore.is_empty() {
        return names(loaded);
    }
    let all = RuleArgs {
        patterns: args.patterns.clone(),
        select: Vec::new(),
        ignore: Vec::new(),
    };
    load_rules(&all).map(|set| names(&set)).unwrap_or_default()
}

/// The scan itself: exit 0, 1 or 2 as `--help` says.
fn scan(args: &ScanArgs, rules: &RuleSet) -> ExitCode {
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let mut config = scan::ScanConfig::new(rules);
    config.project_rules = true;
    config.source_root = args.source_root.clone();
    config.root = air_scan::input::root::PathRoot::new(args.sarif_root.as_deref());
    config.llvm_dis = args.llvm_dis.clone();
    if let Err(e) = configure_inputs(&mut config, args).and_then(|()| config.check_named_tools()) {
        eprintln!("air-scan: {e}");
        return ExitCode::from(2);
    }
    let baseline = match args
        .baseline
        .as_deref()
        .map(air_scan::baseline::Baseline::load)
    {
        Some(Ok(b)) => Some(b),
        Some(Err(e)) => {
            eprintln!("air-scan: {e}");
            return ExitCode::from(2);
        }
        None => None,
    };
    let roots = air_scan::baseline::Roots::new(&args.paths);
    use air_scan::rules::Severity;
    let threshold = match args.fail_on {
        FailOn::Error => Some(Severity::Error),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Note => Some(Severity::Note),
        FailOn::Never => None,
    };
    let fails = |file: &scan::FileReport| {
        threshold.is_some_and(|t| file.findings.iter().any(|f| f.severity >= t))
    };
    let mut suppressor = air_scan::suppress::Suppressor::new(&every_rule_name(&args.rules, rules));
    let mut analysed = 0;
    let mut settle = |file: &mut scan::FileReport| {
        analysed += usize::from(file.status == scan::Status::Ok);
        suppressor.apply(file);
        if let Some(b) = &baseline {
            b.apply(std::slice::from_mut(file), &roots);
        }
    };
    // Every format is written as the scan goes, each report let go once
    // what the format needs of it is kept: a scan of many large modules
    // holds a few at a time.
    let report_root = config.root.clone();
    let mut stream: Box<dyn report::ReportStream + Send> = match args.format {
        Format::Json => match report::json::JsonStream::new(
            std::io::stdout(),
            &report::json::ScanInfo::of_process(&report_root),
        ) {
            Ok(json) => Box::new(json),
            Err(_) => return ExitCode::from(2),
        },
        Format::Text => Box::new(report::text::TextStream::new(
            std::io::stdout(),
            report::text::Options {
                color: args.color.enabled(),
                show_suppressed: args.show_suppressed,
                inventory: args.inventory,
                quiet: args.quiet,
            },
        )),
        Format::Html => Box::new(report::html::HtmlStream::new(
            std::io::stdout(),
            &report::json::ScanInfo::of_process(&report_root),
        )),
        Format::Sarif => {
            let options = report::sarif::Options {
                base: args.sarif_root.as_deref(),
                show_suppressed: args.show_suppressed,
                emit_ir: config.emit_ir.as_deref(),
            };
            let sarif = report::sarif::SarifStream::new(std::io::stdout(), rules, &options);
            Box::new(sarif.on_cut(|cut| eprintln!("air-scan: {cut}")))
        }
    };
    let mut failing = false;
    let mut written = Ok(());
    let mut known_files = report::paths::KnownFiles::default();
    let scanned = scan::scan_each(&args.paths, jobs, &config, |mut file| {
        settle(&mut file);
        failing |= fails(&file);
        // JSON and HTML write paths as SARIF does (`report::paths`).
        if matches!(args.format, Format::Json | Format::Html) {
            report::paths::rebase(&report_root, &mut known_files, &mut file);
        }
        if written.is_ok() {
            written = stream.add(&file);
        }
    });
    let finished = written.and_then(|()| stream.finish());
    let written = finished.is_ok();
    let totals = finished.unwrap_or_default();
    if analysed == 0 {
        eprintln!("air-scan: {}", nothing_analysed(args, &scanned, &totals));
        return ExitCode::from(2);
    }
    if let Some(line) = scanned.skipped_line() {
        eprintln!("{line}");
    }
    if let Some(dir) = &config.emit_ir {
        eprintln!(
            "air-scan: the IR text of {} modules read from binaries is in {}",
            config.emitted_ir(),
            dir.display()
        );
    }
    if let Some(b) = &baseline
        && totals.baseline_matched == 0
        && totals.findings > 0
    {
        eprintln!(
            "air-scan: the baseline matched none of the {} findings ({} in the baseline): was it \
             made from another tree, or with other rules?",
            totals.findings, b.size
        );
    }
    if !written {
        return ExitCode::from(2);
    }
    if totals.failed > 0 || totals.reader_errors > 0 {
        return ExitCode::from(2);
    }
    if failing {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The one line saying why no module was analysed.
fn nothing_analysed(
    args: &ScanArgs,
    scanned: &scan::ScanOutput,
    totals: &report::Totals,
) -> String {
    let paths: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
    let paths = paths.join(", ");
    if let (Some(reason), n @ 1..) = (&scanned.skip_reason, scanned.skipped.len()) {
        let files = if n == 1 { "file" } else { "files" };
        return format!(
            "nothing analysed: {n} .metal {files} skipped ({reason}), and no .ll, .air or \
             .metallib file in {paths}; pass --xcrun, or scan the IR built on a Mac"
        );
    }
    if totals.failed > 0 {
        let files = if totals.failed == 1 { "file" } else { "files" };
        return format!(
            "nothing analysed: the {} {files} found in {paths} could not be read",
            totals.failed
        );
    }
    format!("nothing analysed: no .ll, .air, .metallib or .metal file in {paths}")
}
