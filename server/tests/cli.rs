//! `ssdbase parse` end to end: real files in, JSON lines out, errors on stderr with the
//! file and line, exit status 1 when any input failed while the others still print.

mod common;

use common::shared;
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn ssdbase(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ssdbase"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8(out.stdout.clone()).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn parses_files_and_stdin_into_the_public_json_format() {
    let kdm = shared().join("corpus/real/kdiskmark/02__JonMagon_KDiskMark__README_3.0.0_example.txt");
    let cdm = std::fs::read(
        shared().join("corpus/real/cdm3/10__pastebin_nLyTADpy__3.0.3_x64_NUMBERED_COLLAPSED.txt"),
    )
    .unwrap();
    let out = ssdbase(&["parse", kdm.to_str().unwrap(), "-"], &cdm);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let results = json_lines(&out);
    assert_eq!(results.len(), 2);
    assert_eq!(results[0]["tool"], "kdiskmark");
    assert_eq!(results[0]["metrics"][2]["mbps"], 354.657);
    assert_eq!(results[1]["tool"], "crystaldiskmark");
    assert_eq!(results[1]["tool_version"], "3.0.3 x64");
    // The public field names, all present.
    for field in [
        "tool",
        "tool_version",
        "profile",
        "test_size_bytes",
        "passes",
        "data_pattern",
        "date",
        "os",
        "comment",
        "metrics",
    ] {
        assert!(results[1].get(field).is_some(), "missing field {field}");
    }
    for field in
        ["label", "access", "block_size", "queue_depth", "threads", "op", "mbps", "iops", "latency_us"]
    {
        assert!(results[1]["metrics"][0].get(field).is_some(), "missing metric field {field}");
    }
}

#[test]
fn bad_input_names_file_and_line_and_the_rest_still_prints() {
    let good =
        shared().join("corpus/real/asssd/01__unknown_id14171726121__2.0.7316_samsung970evoplus_mbps.txt");
    let broken = "CrystalDiskMark 3.0.3 x64 (C) 2007-2013 hiyohiyo\n\nSequential Read : 4x3.079 MB/s\n";
    let out = ssdbase(&["parse", "-", good.to_str().unwrap(), "/no/such/file.txt"], broken.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr.clone()).unwrap();
    assert!(stderr.contains("-: CrystalDiskMark: line 3:"), "{stderr}");
    assert!(stderr.contains("/no/such/file.txt:"), "{stderr}");
    let results = json_lines(&out);
    assert_eq!(results.len(), 1, "the good file is still reported");
    assert_eq!(results[0]["tool"], "as-ssd");
}

#[test]
fn format_flag_overrides_detection_and_rejects_unknown_names() {
    let kdm = shared().join("corpus/real/kdiskmark/02__JonMagon_KDiskMark__README_3.0.0_example.txt");
    let out = ssdbase(&["parse", "--format", "orion", kdm.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1), "a KDiskMark file is not an ORION summary");
    let out = ssdbase(&["parse", "--format", "atto", "-"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("expected one of cdm, kdiskmark, fio, orion, asssd, hdtune"));
}

/// `ssdbase parse` prints what a file says about its drive and platform, each fact with
/// the line it was read from (the public format's `facts`).
#[test]
fn parse_prints_the_facts_a_file_states_with_their_lines() {
    let asssd =
        shared().join("corpus/real/asssd/01__unknown_id14171726121__2.0.7316_samsung970evoplus_mbps.txt");
    let text = std::fs::read_to_string(&asssd).unwrap();
    let out = ssdbase(&["parse", asssd.to_str().unwrap()], b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let facts = json_lines(&out)[0]["facts"].as_array().unwrap().clone();
    let model = facts.iter().find(|f| f["field"] == "model").expect("a model fact");
    assert_eq!(model["value"], "Samsung SSD 970 EVO Plus 250GB");
    // The line it names holds what it quotes.
    let source = model["source"].as_str().unwrap();
    let (line, quoted) = source.strip_prefix("line ").and_then(|s| s.split_once(": ")).unwrap();
    let line: usize = line.parse().unwrap();
    assert_eq!(text.lines().nth(line - 1).map(str::trim), Some(quoted), "{source}");
    for field in ["firmware", "driver", "capacity_gb"] {
        assert!(facts.iter().any(|f| f["field"] == field), "{field}: {facts:?}");
    }
}
