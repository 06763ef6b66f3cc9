//! `--format html` and `air-scan diff --format html` in a real browser:
//! headless Chromium loads each page with no console message, and the DOM
//! it builds holds the counts of the JSON report of the same input. Without
//! Chromium the browser tests say they skipped (under CI they fail:
//! tests/common).

mod common;

use common::{air_scan, fixture, missing};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The scan page's summary cards and the JSON report's `totals` they show.
const TOTALS_SHOWN: &[(&str, &str)] = &[
    ("n-files", "files"),
    ("n-failed", "failed"),
    ("n-skipped", "skipped"),
    ("n-kernels", "kernels"),
    ("n-findings", "findings"),
    ("n-causes", "causes"),
];

/// The page for the whole corpus must stay below this.
const MAX_CORPUS_PAGE: usize = 5 << 20;

/// Debian's `chromium` (or `chromium-browser`) on PATH, or `None` after
/// [`missing`].
fn chromium(what: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    missing(what, "no chromium on PATH (apt-get install chromium)");
    None
}

/// What Chromium made of a page: the DOM once its scripts ran, and every
/// console message (Chromium logs them all, whatever their level, as
/// `INFO:CONSOLE` with `--enable-logging=stderr`).
struct Loaded {
    dom: String,
    console: Vec<String>,
}

fn load(browser: &Path, page: &Path, fragment: &str) -> Loaded {
    let profile = tempfile::tempdir().unwrap();
    let url = format!(
        "file://{}{fragment}",
        page.canonicalize().unwrap().display()
    );
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(&url)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read both pipes on threads, so that neither fills and stalls it.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut s).unwrap();
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("chromium did not finish loading {url} in 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let dom = out.join().unwrap();
    let console = err
        .join()
        .unwrap()
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_string)
        .collect();
    Loaded { dom, console }
}

impl Loaded {
    /// The page's script ran to its end and nothing went wrong.
    fn assert_clean(&self, view: &str) {
        assert!(
            self.console.is_empty(),
            "console messages: {:#?}",
            self.console
        );
        assert!(!self.dom.contains("data-error="), "a script error");
        assert!(
            self.dom.contains(&format!("data-rendered=\"{view}\"")),
            "the {view} page was not drawn: {}",
            &self.dom[..self.dom.len().min(2000)]
        );
    }

    /// The number shown in the element `id` (`1,234` read as 1234).
    fn number(&self, id: &str) -> u64 {
        let tag = format!("id=\"{id}\">");
        let at = self.dom.find(&tag).unwrap_or_else(|| panic!("no #{id}")) + tag.len();
        let text: String = self.dom[at..]
            .chars()
            .take_while(|&c| c != '<')
            .filter(|&c| c != ',')
            .collect();
        text.parse()
            .unwrap_or_else(|_| panic!("#{id} holds {text:?}"))
    }

    /// Each element `id` shows the number `of[key]`.
    fn assert_numbers(&self, of: &Value, ids: &[(&str, &str)]) {
        for (id, key) in ids {
            let want = of[key].as_u64().unwrap_or_else(|| panic!("no {key}"));
            assert_eq!(self.number(id), want, "#{id}");
        }
    }

    /// Rows of a table made with `rowClass` `class`.
    fn rows(&self, class: &str) -> usize {
        self.dom
            .matches(&format!("<tr class=\"row {class}"))
            .count()
    }
}

/// `air-scan ARGS --format FORMAT`, run to its end.
fn run<A: AsRef<std::ffi::OsStr>>(
    args: impl IntoIterator<Item = A>,
    format: &str,
) -> std::process::Output {
    air_scan()
        .args(args)
        .args(["--format", format])
        .output()
        .unwrap()
}

/// Writes `text` to `dir/name`, returning the path.
fn write(dir: &Path, name: &str, text: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// The scan page of `testdata/` (findings of every rule, skipped `.metal`
/// files), `tests/inputs/` (reader errors and warnings) and a file that
/// cannot be read, against the JSON report of the same scan.
#[test]
fn the_scan_page_shows_the_counts_of_the_json_report() {
    let Some(browser) = chromium("the HTML report in a browser") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let root = fixture("");
    let reader = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs");
    let broken = dir.path().join("inputs");
    std::fs::create_dir(&broken).unwrap();
    write(&broken, "truncated.air", b"BC\xc0\xde\x35\x14\x00\x00");
    let json = run([&root, &reader, &broken], "json");
    let html = run([&root, &reader, &broken], "html");
    assert_eq!(json.status.code(), html.status.code());
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    let page = write(dir.path(), "scan.html", &html.stdout);
    let loaded = load(&browser, &page, "#open=causes");
    loaded.assert_clean("scan");
    let totals = &report["totals"];
    loaded.assert_numbers(totals, TOTALS_SHOWN);
    loaded.assert_numbers(
        &totals["findings_by_severity"],
        &[
            ("n-error", "error"),
            ("n-warning", "warning"),
            ("n-note", "note"),
        ],
    );
    let estimated: u64 = report["summary"]["by_rule"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["estimated_cycles"].as_u64())
        .sum();
    assert_eq!(loaded.number("n-cycles"), estimated);
    let len = |v: &Value| v.as_array().unwrap().len();
    assert_eq!(loaded.rows("cause"), len(&report["causes"]));
    assert_eq!(loaded.rows("kernel"), len(&report["summary"]["by_kernel"]));
    assert_eq!(loaded.rows("rule"), len(&report["summary"]["by_rule"]));
    let failed = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["status"] == "error")
        .count();
    assert_eq!(failed, 1, "the truncated bitcode");
    assert_eq!(loaded.rows("failed"), failed);
    let skipped = totals["skipped"].as_u64().unwrap() as usize;
    if cfg!(not(target_os = "macos")) {
        assert!(skipped > 0, "testdata/'s .metal files, with no xcrun");
    }
    assert_eq!(loaded.rows("skipped"), skipped);
    let files = report["files"].as_array().unwrap();
    let diagnosed = files
        .iter()
        .filter(|f| !f["diagnostics"].as_array().unwrap().is_empty())
        .count();
    assert!(diagnosed > 0, "tests/inputs has reader diagnostics");
    assert_eq!(loaded.rows("diagnosed"), diagnosed);
    let suppressed: usize = files
        .iter()
        .filter_map(|f| f["suppressed"].as_array())
        .map(Vec::len)
        .sum();
    assert!(suppressed > 0, "testdata/suppress");
    assert_eq!(loaded.rows("suppressed"), suppressed);
    // `#open=causes` opened every cause: each shows its whole message
    // (as the DOM writes text: `&` and `<` escaped), its help and its IR.
    assert_eq!(
        loaded.dom.matches("<tr class=\"detail\">").count(),
        len(&report["causes"])
    );
    let dom_text = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let mut exact = 0;
    for c in report["causes"].as_array().unwrap() {
        let message = dom_text(c["message"].as_str().unwrap());
        assert!(loaded.dom.contains(&message), "{message}");
        let ir = dom_text(c["location"]["ir"]["instruction"].as_str().unwrap());
        assert!(loaded.dom.contains(&ir), "{ir}");
        // An MSL line on disk is shown, with its place.
        let source = &c["location"]["source"];
        if source["status"] == "exact" {
            let (path, line) = (source["path"].as_str().unwrap(), &source["line"]);
            let n = line.as_u64().unwrap() as usize;
            let text = std::fs::read_to_string(path).unwrap();
            let msl = dom_text(text.lines().nth(n - 1).unwrap());
            exact += 1;
            assert!(loaded.dom.contains(&format!("MSL {path}:{line}")), "{path}");
            assert!(loaded.dom.contains(&msl), "{msl}");
        }
    }
    assert!(exact > 0, "testdata/ has causes on MSL lines");
}

/// A kernel, an argument and a folder named with markup: each shows as
/// text, and the `</script>` in the data does not end its element.
#[test]
fn names_and_paths_with_markup_are_shown_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let kernel = "</script><script>document.body.dataset.pwned=1</script>";
    let folder = dir.path().join("<script>alert(1)<!--");
    std::fs::create_dir(&folder).unwrap();
    let text = std::fs::read_to_string(fixture("minimal_kernel.ll"))
        .unwrap()
        .replace("@minimal(", &format!("@\"{kernel}\"("))
        .replace("@minimal,", &format!("@\"{kernel}\","))
        .replace("!\"divisor\"", "!\"<b>divisor</b>\"");
    write(&folder, "k.ll", text.as_bytes());
    let json = run([&folder], "json");
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["files"][0]["kernels"][0]["name"], kernel);
    assert!(
        report["causes"][0]["message"]
            .as_str()
            .unwrap()
            .contains("<b>divisor</b>")
    );
    let html = run([&folder], "html");
    let page = String::from_utf8(html.stdout).unwrap();
    // The page's own two scripts close; nothing of the data does.
    assert_eq!(page.matches("</script>").count(), 2);
    assert_eq!(page.matches("<script").count(), 2);
    assert!(!page.contains("<b>divisor"));
    assert!(!page.contains("<script>alert"));
    let Some(browser) = chromium("escaping in a browser") else {
        return;
    };
    let path = write(dir.path(), "page.html", page.as_bytes());
    let loaded = load(&browser, &path, "#open=all");
    loaded.assert_clean("scan");
    // The name is text: its script did not run.
    assert!(!loaded.dom.contains("data-pwned"), "{}", loaded.dom);
    assert!(!loaded.dom.contains("<b>divisor"));
    assert!(
        loaded
            .dom
            .contains("&lt;/script&gt;&lt;script&gt;document.body.dataset")
    );
    assert!(loaded.dom.contains("&lt;b&gt;divisor&lt;/b&gt;"));
    assert!(loaded.dom.contains("&lt;script&gt;alert(1)&lt;!--"));
    assert_eq!(loaded.number("n-kernels"), 1);
    assert_eq!(loaded.rows("kernel"), 1);
    // The diff's page, of the folder with itself: the same.
    let diff = run([Path::new("diff"), &folder, &folder], "html");
    assert_eq!(diff.status.code(), Some(0));
    let page = String::from_utf8(diff.stdout).unwrap();
    assert_eq!(page.matches("</script>").count(), 2);
    assert!(!page.contains("<script>alert"));
    let path = write(dir.path(), "diff.html", page.as_bytes());
    let loaded = load(&browser, &path, "");
    loaded.assert_clean("diff");
    assert!(!loaded.dom.contains("data-pwned"));
    assert!(
        loaded
            .dom
            .contains("k.ll: &lt;/script&gt;&lt;script&gt;document")
    );
    assert!(loaded.dom.contains("&lt;script&gt;alert(1)&lt;!--"));
    assert_eq!(loaded.number("d0-kernels"), 1);
}

/// The -O0/-O2 pair of testdata/diff: per-kernel changes, helped and hurt
/// totals, and the `mul i32 _, 536870907` chain moving into a conditional
/// block shown with the IR of both sides.
#[test]
fn the_diff_page_shows_totals_and_moved_computations_on_both_sides() {
    let (a, b) = (fixture("diff/O0"), fixture("diff/O2"));
    let json = run([Path::new("diff"), &a, &b], "json");
    let html = run([Path::new("diff"), &a, &b], "html");
    assert_eq!(json.status.code(), Some(1));
    assert_eq!(html.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    let Some(browser) = chromium("the diff page in a browser") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let page = write(dir.path(), "diff.html", &html.stdout);
    let loaded = load(&browser, &page, "");
    loaded.assert_clean("diff");
    let summary = &report["summary"];
    loaded.assert_numbers(
        summary,
        &[
            ("d0-kernels", "kernels"),
            ("d0-changed", "changed"),
            ("d0-only-a", "only_a"),
            ("d0-only-b", "only_b"),
            ("d0-errors", "errors"),
        ],
    );
    // One totals row per metric counted on some side, with helped and hurt.
    let totals = &report["totals"];
    let counted = |group: &str| {
        totals[group]
            .as_object()
            .unwrap()
            .values()
            .filter(|t| t["a"] != 0 || t["b"] != 0)
            .count()
    };
    assert_eq!(
        loaded.dom.matches("<tr class=\"total\">").count(),
        counted("metrics") + counted("findings")
    );
    let instructions = &totals["metrics"]["instructions"];
    let row = format!(
        "<td>instructions</td><td class=\"num\">{}</td><td class=\"num\">{}</td>",
        instructions["a"], instructions["b"]
    );
    assert!(loaded.dom.contains(&row), "{row}");
    let helped = instructions["helped"].as_u64().unwrap();
    assert!(helped > 0);
    assert!(loaded.dom.contains(&format!(
        "<td class=\"num helped\">{helped}</td><td class=\"num hurt\">0</td></tr>"
    )));
    // The moved steps, each with its a side and its b side.
    let change = &report["kernels"][0]["introduced"][0];
    let moved = change["anchor"]["moved"].as_array().unwrap();
    assert!(!moved.is_empty());
    assert!(loaded.dom.contains("Moved into a conditional block"));
    assert_eq!(
        loaded
            .dom
            .matches("<div class=\"side-a\"><div class=\"site\">a: ")
            .count(),
        report["kernels"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|k| k["introduced"].as_array().unwrap())
            .map(|c| c["anchor"]["moved"].as_array().map_or(0, Vec::len))
            .sum::<usize>()
    );
    for m in moved {
        for side in ["a", "b"] {
            let ir = m[side]["instruction"].as_str().unwrap();
            assert!(loaded.dom.contains(ir), "{side}: {ir}");
        }
    }
    assert!(loaded.dom.contains("mul i32 %27, 536870907"));
}

/// The page for the whole corpus: within 5 MB, and drawn with the JSON
/// report's counts.
#[test]
fn the_corpus_page_is_small_and_complete() {
    let Some(corpus) = common::shared("corpus", "the corpus HTML page") else {
        return;
    };
    let rules = air_scan::rules::RuleSet::builtin();
    let config = air_scan::scan::ScanConfig::new(&rules);
    let files = air_scan::scan::scan_paths(&[corpus], 2, &config);
    let scan = air_scan::report::json::ScanInfo::default();
    let page = air_scan::report::html::render(&files, &scan).unwrap();
    assert!(
        page.len() <= MAX_CORPUS_PAGE,
        "the corpus page is {} bytes",
        page.len()
    );
    let mut json = Vec::new();
    air_scan::report::json::write(&files, &mut json).unwrap();
    let report: Value = serde_json::from_slice(&json).unwrap();
    let Some(browser) = chromium("the corpus page in a browser") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "corpus.html", page.as_bytes());
    let loaded = load(&browser, &path, "");
    loaded.assert_clean("scan");
    loaded.assert_numbers(&report["totals"], TOTALS_SHOWN);
    let len = |v: &Value| v.as_array().unwrap().len();
    assert_eq!(loaded.rows("cause"), len(&report["causes"]));
    assert_eq!(loaded.rows("kernel"), len(&report["summary"]["by_kernel"]));
}

/// What a script clicking the page's headings and setting its filters saw,
/// run after the page's own scripts (in a function: they share one scope).
const CLICKS: &str = r##"<script>
(() => {
const q = (s) => [...document.querySelectorAll(s)];
const ths = q("#kernels thead th");
const col = ths.findIndex((t) => t.textContent === "Findings");
const column = () => q("#kernels tbody tr.row").map((tr) => Number(tr.children[col].textContent.replace(/,/g, "")));
ths[col].click();
const first = column();
ths[col].click();
const second = column();
const set = (id, value, event) => {
  const e = document.getElementById(id);
  e.value = value;
  e.dispatchEvent(new Event(event));
};
const shown = () => [q("#causes tbody tr.row").length, q("#kernels tbody tr.row").length];
set("f-rule", "RULE", "change");
const byRule = shown();
set("f-rule", "", "change");
set("f-severity", "error", "change");
const bySeverity = shown();
set("f-severity", "", "change");
set("f-kernel", "KERNEL", "input");
const byKernel = shown();
document.body.dataset.check = JSON.stringify({ first, second, byRule, bySeverity, byKernel });
})();
</script></body>"##;

/// Sorting a table by a column, both ways, and each filter, in the
/// browser, against the JSON report of the same scan.
#[test]
fn tables_sort_and_filter_in_the_browser() {
    let Some(browser) = chromium("sorting and filtering in a browser") else {
        return;
    };
    let root = fixture("rules");
    let report: Value = serde_json::from_slice(&run([&root], "json").stdout).unwrap();
    let causes = report["causes"].as_array().unwrap();
    let kernels = report["summary"]["by_kernel"].as_array().unwrap();
    let rule = "divide-by-uniform";
    // A kernel some causes reach and others do not.
    let kernel = causes[0]["kernels"][0].as_str().unwrap().to_lowercase();
    let kernel = kernel.as_str();
    let page = String::from_utf8(run([&root], "html").stdout)
        .unwrap()
        .replacen(
            "</body>",
            &CLICKS.replace("RULE", rule).replace("KERNEL", kernel),
            1,
        );
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "clicks.html", page.as_bytes());
    let loaded = load(&browser, &path, "");
    loaded.assert_clean("scan");
    let at = loaded.dom.find("data-check=\"").expect("the clicks ran") + 12;
    let text = &loaded.dom[at..];
    let text = text[..text.find('"').unwrap()]
        .replace("&quot;", "\"")
        .replace("&amp;", "&");
    let seen: Value = serde_json::from_str(&text).unwrap();
    let numbers = |v: &Value| -> Vec<u64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .collect()
    };
    // The table opens sorted by cycles; one click sorts by findings, most
    // first, a second click fewest first.
    let mut want: Vec<u64> = kernels
        .iter()
        .map(|k| k["findings"].as_u64().unwrap())
        .collect();
    want.sort_unstable_by(|a, b| b.cmp(a));
    assert!(
        want.first() > want.last(),
        "findings differ between kernels"
    );
    assert_eq!(numbers(&seen["first"]), want);
    want.reverse();
    assert_eq!(numbers(&seen["second"]), want);
    let count = |keep: &dyn Fn(&Value) -> bool, list: &[Value]| {
        list.iter().filter(|v| keep(v)).count() as u64
    };
    let has_rule = |k: &Value| {
        k["by_rule"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["rule"] == rule)
    };
    assert_eq!(
        numbers(&seen["byRule"]),
        [
            count(&|c| c["rule"] == rule, causes),
            count(&has_rule, kernels)
        ]
    );
    let errors = |k: &Value| k["by_severity"]["error"].as_u64().unwrap() > 0;
    assert_eq!(
        numbers(&seen["bySeverity"]),
        [
            count(&|c| c["severity"] == "error", causes),
            count(&errors, kernels)
        ]
    );
    let names = |v: &Value| v.as_str().unwrap().to_lowercase().contains(kernel);
    let reaches = |c: &Value| {
        c["kernels"].as_array().unwrap().iter().any(names) || names(&c["location"]["function"])
    };
    let by_kernel = numbers(&seen["byKernel"]);
    assert_eq!(
        by_kernel,
        [
            count(&reaches, causes),
            count(&|k| names(&k["name"]), kernels)
        ]
    );
    assert!(by_kernel[0] > 0 && by_kernel[0] < causes.len() as u64);
}

/// Pages with nothing to show draw without an error: a scan without
/// findings, a diff of two equal twins, a diff that could not open a side.
#[test]
fn empty_and_failed_pages_draw_cleanly() {
    let Some(browser) = chromium("empty pages in a browser") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let minimal = fixture("minimal_kernel.ll");
    let twins = fixture("diff/twins");
    let pages: [(&str, Vec<std::ffi::OsString>, i32); 3] = [
        (
            "scan",
            vec![minimal.into(), "--select".into(), "indirect-call".into()],
            0,
        ),
        (
            "diff",
            vec![
                "diff".into(),
                twins.join("typed.ll").into(),
                twins.join("opaque.ll").into(),
            ],
            0,
        ),
        (
            "diff",
            vec![
                "diff".into(),
                dir.path().join("absent").into(),
                twins.into(),
            ],
            2,
        ),
    ];
    for (n, (view, args, code)) in pages.into_iter().enumerate() {
        let out = run(&args, "html");
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        let path = write(dir.path(), &format!("{n}.html"), &out.stdout);
        let loaded = load(&browser, &path, "");
        loaded.assert_clean(view);
        if view == "scan" {
            assert_eq!(loaded.number("n-findings"), 0);
            assert_eq!(loaded.rows("kernel"), 1);
        } else {
            assert_eq!(loaded.number("d0-errors"), u64::from(code == 2));
        }
    }
}
