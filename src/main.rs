use air_scan::{report, scan};
use clap::{Parser, ValueEnum};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    Text,
    Json,
}

/// Reads the LLVM IR (AIR) that Apple's Metal compiler emits and reports
/// what it finds, per file and per kernel.
#[derive(Parser, Debug)]
#[command(name = "air-scan", version, about)]
struct Cli {
    /// Files and directories to scan (directories recursively, `.ll` files).
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,

    /// Files read in parallel (default: one per core).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let jobs = cli
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let files = scan::scan_paths(&cli.paths, jobs);
    let out = match cli.format {
        Format::Text => report::text::render(&files),
        Format::Json => report::json::render(&files),
    };
    let mut stdout = std::io::stdout().lock();
    if stdout
        .write_all(out.as_bytes())
        .and_then(|_| stdout.flush())
        .is_err()
    {
        return ExitCode::from(2);
    }
    let totals = report::Totals::of(&files);
    if totals.failed > 0 || totals.errors > 0 {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}
