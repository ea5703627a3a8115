//! Hostile archives and record sets given to `check --records` and
//! `replay`, each test building its attack: zip bombs (entries sharing one
//! stream, an absurd ratio), a name given twice, an encrypted entry, a
//! truncated archive, archives past their decompressed limits, and more
//! games than a check may hold. A check that could not read what it was
//! given never passes.
//!
//! Memory is bounded by `ulimit -v` and work by `ulimit -t` (CPU seconds),
//! never by the wall clock: before, the bombs ran for hours and the games
//! took gigabytes.

use std::io::{Cursor, Write};
use std::path::Path;

use serde_json::Value;
use zip::write::SimpleFileOptions;

use crate::check_run::{Check, Checked};
use crate::common::{command, repository, scratch, stdout, BIN};

/// The memory of every run, in KiB (1 GiB): far under what the attacks took.
const MEMORY_KIB: u64 = 1 << 20;

/// A clean game: two plies of Base.
const GAME: &[u8] = b"[GameType \"Base\"]\n[Result \"*\"]\n\n1. wS1\n2. bS1 wS1-\n*\n";

/// The entries `entries` (name, bytes) deflated into a zip archive.
fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (name, bytes) in entries {
        zip.start_file(*name, deflated()).expect("an entry");
        zip.write_all(bytes).expect("the entry's bytes");
    }
    zip.finish().expect("the archive").into_inner()
}

fn deflated() -> SimpleFileOptions {
    SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated)
}

/// `bytes` with every `from` replaced by `to` (of the same length).
fn replaced(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let mut out = bytes.to_vec();
    let mut i = 0;
    while i + from.len() <= out.len() {
        if &out[i..i + from.len()] == from {
            out[i..i + from.len()].copy_from_slice(to);
            i += from.len();
        } else {
            i += 1;
        }
    }
    out
}

/// Writes `bytes` to `dir/name`, its path as text.
fn put(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("a test file");
    path.display().to_string()
}

/// `check --records PATH` alone (no corpus, no random game), the JSON
/// report on stdout, under the memory bound and `cpu` CPU seconds.
fn check_records(path: &str, cpu: u64, env: &[(&str, &str)]) -> Checked {
    let mut check = Check::new()
        .args(["--no-corpus", "--games", "0", "--records", path])
        .json()
        .memory_kib(MEMORY_KIB)
        .cpu_seconds(cpu);
    for (name, value) in env {
        check = check.env(name, value);
    }
    check.run()
}

/// The reasons of a report's `incomplete`, as text.
fn incomplete(report: &Value) -> Vec<String> {
    report["incomplete"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r.as_str().map(str::to_string))
        .collect()
}

/// `replay ARGS...` under the memory bound and `cpu` CPU seconds: its exit
/// status and stdout.
fn replay(args: &[&str], cpu: u64, env: &[(&str, &str)]) -> (Option<i32>, String) {
    let out = command("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {MEMORY_KIB} && ulimit -t {cpu} && exec \"$0\" replay \"$@\""
        ))
        .arg(BIN)
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("sh runs");
    (out.status.code(), stdout(&out))
}

/// docs/limits.md `archive-names`: an archive that names an entry twice is
/// refused whole. Before: the zip reader kept one entry of each name, so a
/// clean game hid an illegal one (illegal-move.pgn, One Hive §5.3) behind
/// the same name and `check --records` passed.
#[test]
fn an_archive_naming_an_entry_twice_is_refused_whole() {
    let scratch = scratch();
    let illegal =
        std::fs::read(repository("tests/records/pgn/illegal-move.pgn")).expect("a record");
    let archive = zip_of(&[("games.pgn", GAME), ("gamez.pgn", &illegal)]);
    let archive = put(
        scratch.path(),
        "twice.zip",
        &replaced(&archive, b"gamez.pgn", b"games.pgn"),
    );
    refused_whole(&archive, "twice.zip", "names an entry more than once", 60);
}

/// The archive `path` (named `name`) refused whole, saying `said`: a check
/// of it fails with the archive listed as not read and no game checked, and
/// its replay fails naming why; each within `cpu` CPU seconds.
fn refused_whole(path: &str, name: &str, said: &str, cpu: u64) {
    let checked = check_records(path, cpu, &[]);
    let report = checked.report();
    assert_eq!(checked.status, Some(1), "{report:#}");
    let reasons = incomplete(&report);
    assert!(
        reasons
            .iter()
            .any(|r| r.contains(&format!("{name} could not be read")) && r.contains(said)),
        "{reasons:#?}"
    );
    assert_eq!(report["summary"]["record_games"], 0, "{report:#}");
    let (status, text) = replay(&[path], cpu, &[]);
    assert_eq!(status, Some(1), "{text}");
    assert!(text.contains(said), "{text}");
}

/// docs/limits.md `archive-bomb`: entries that share their compressed data
/// are refused at once. The attack: one deflated stream of 64 MiB of blank
/// lines and 10,000 entries pointing at it (about 1 MB of archive). Before:
/// each entry was decompressed in turn, 64 MiB each, for hours.
#[test]
fn entries_sharing_one_stream_are_refused_before_any_is_decompressed() {
    let scratch = scratch();
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    zip.start_file("g00000.pgn", deflated()).expect("an entry");
    let block = vec![b'\n'; 1 << 20];
    for _ in 0..64 {
        zip.write_all(&block).expect("the entry's bytes");
    }
    for copy in 1..=10_000 {
        zip.shallow_copy_file("g00000.pgn", &format!("g{copy:05}.pgn"))
            .expect("a copy");
    }
    let bytes = zip.finish().expect("the archive").into_inner();
    assert!(bytes.len() < 4 << 20, "{} bytes", bytes.len());
    let archive = put(scratch.path(), "shared.zip", &bytes);
    refused_whole(&archive, "shared.zip", "share their compressed data", 20);
}

/// docs/limits.md `archive-bomb`: an entry that decompresses to more than
/// 100 times its compressed size (16 MiB of spaces deflate about 1,000
/// times) is refused after 1 MiB at most, named, and the entries after it
/// are read; the check that could not read it does not pass.
#[test]
fn an_entry_of_an_absurd_ratio_is_refused_and_the_others_read() {
    let scratch = scratch();
    let spaces = vec![b' '; 16 << 20];
    let archive = zip_of(&[("bomb.pgn", &spaces), ("after.pgn", GAME)]);
    let archive = put(scratch.path(), "ratio.zip", &archive);
    let (status, text) = replay(&[&archive], 20, &[]);
    assert_eq!(status, Some(1), "{text}");
    assert!(
        text.contains("ratio.zip/bomb.pgn: cannot read: the entry's")
            && text.contains("over 100 times their size"),
        "{text}"
    );
    assert!(text.contains("all             1      1"), "{text}");
    fails_for_an_entry(&archive, 1, "ratio.zip/bomb.pgn could not be read");
}

/// A check of the archive `path` fails (exit 1) for an entry it could not
/// read, `said` in its `incomplete`, after checking the `games` games of
/// the other entries.
fn fails_for_an_entry(path: &str, games: u64, said: &str) {
    let checked = check_records(path, 60, &[]);
    let report = checked.report();
    assert_eq!(checked.status, Some(1), "{report:#}");
    assert_eq!(report["summary"]["record_games"], games, "{report:#}");
    assert!(
        incomplete(&report).iter().any(|r| r.contains(said)),
        "{report:#}"
    );
}

/// Comment lines (`{...}`, §10.4) of letters from a seeded xorshift, 100
/// bytes each, `count` bytes in all: text that deflates about 1.7 times, as
/// game records do (well under the ratio limit).
fn comment_lines(count: usize, seed: u64) -> Vec<u8> {
    let mut state = seed | 1;
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        out.push(b'{');
        for _ in 0..97 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            out.push(b'a' + (state % 26) as u8);
        }
        out.extend_from_slice(b"}\n");
    }
    out
}

/// A game of two plies after about `bytes` bytes of comment lines.
fn padded_game(bytes: usize, seed: u64) -> Vec<u8> {
    let mut game = b"[GameType \"Base\"]\n[Result \"*\"]\n\n".to_vec();
    game.extend(comment_lines(bytes, seed));
    game.extend_from_slice(b"1. wS1\n2. bS1 wS1-\n*\n");
    game
}

/// docs/limits.md `archive-total`: an archive decompresses to at most
/// 256 MiB and the archives of a run to 1 GiB; the reading stops at the
/// first entry over either. Shown with the test hook's limits of 3 MiB and
/// 5 MiB (the `faults` build), on entries of about 1 MB: the fourth entry
/// of the first archive is over its archive's limit, the third of the
/// second over the run's.
#[test]
fn archives_decompress_within_their_own_and_the_runs_limits() {
    let scratch = scratch();
    let dir = scratch.path();
    let megabyte = |seed| padded_game(1_000_000, seed);
    let (one, two, three, four) = (megabyte(1), megabyte(2), megabyte(3), megabyte(4));
    let first = zip_of(&[
        ("1.pgn", &one),
        ("2.pgn", &two),
        ("3.pgn", &three),
        ("4.pgn", &four),
    ]);
    let second = zip_of(&[("5.pgn", &one), ("6.pgn", &two), ("7.pgn", &three)]);
    let first = put(dir, "a.zip", &first);
    let second = put(dir, "b.zip", &second);
    let hook = [("HIVE_ORACLE_FAULT_ARCHIVE_LIMITS", "3145728,5242880")];
    // one job: the archives are read one after the other (with several,
    // which entry reaches the run's limit depends on the jobs' pace)
    let (status, text) = replay(&["--jobs", "1", &first, &second], 60, &hook);
    assert_eq!(status, Some(1), "{text}");
    assert!(
        text.contains(
            "a.zip/4.pgn: cannot read: the archive's entries decompress to more than 3145728 bytes"
        ),
        "{text}"
    );
    assert!(
        text.contains("b.zip/7.pgn: cannot read: the archives of this run decompress to more than 5242880 bytes"),
        "{text}"
    );
    assert!(text.contains("all             5      5"), "{text}");
    let checked = check_records(&first, 60, &hook);
    let report = checked.report();
    assert_eq!(checked.status, Some(1), "{report:#}");
    assert_eq!(report["summary"]["record_games"], 3, "{report:#}");
}

/// An archive that cannot be read, whole or in part, never passes a check:
/// an encrypted entry beside a clean one (the entries' "encrypted" flag
/// set: the reader has no password) and a truncated archive (its first
/// half). Before: the encrypted entry was counted as a game that does not
/// read, and the check passed on the clean one.
#[test]
fn an_encrypted_entry_or_a_truncated_archive_fails_the_check() {
    let scratch = scratch();
    let dir = scratch.path();
    let clean = zip_of(&[("clean.pgn", GAME), ("secret.pgn", GAME)]);
    // the flag is bit 0 of the general purpose flags: at offset 6 of the
    // entry's local header and 8 of its central directory header
    let mut encrypted = clean.clone();
    let name = b"secret.pgn";
    for (signature, flags_at, name_at) in [(b"PK\x03\x04", 6, 30), (b"PK\x01\x02", 8, 46)] {
        let header = (0..encrypted.len() - name_at - name.len())
            .find(|&i| {
                &encrypted[i..i + 4] == signature
                    && &encrypted[i + name_at..i + name_at + name.len()] == name
            })
            .expect("the entry's header");
        encrypted[header + flags_at] |= 1;
    }
    let encrypted = put(dir, "encrypted.zip", &encrypted);
    fails_for_an_entry(&encrypted, 1, "encrypted.zip/secret.pgn could not be read");
    let truncated = put(dir, "truncated.zip", &clean[..clean.len() / 2]);
    let checked = check_records(&truncated, 60, &[]);
    let report = checked.report();
    assert_eq!(checked.status, Some(1), "{report:#}");
    assert!(
        incomplete(&report)
            .iter()
            .any(|r| r.contains("truncated.zip could not be read")
                && r.contains("a zip archive that does not open")),
        "{report:#}"
    );
    // the clean archive passes: what fails the others is what they hide
    let clean = put(dir, "clean.zip", &clean);
    let checked = check_records(&clean, 60, &[]);
    assert_eq!(checked.status, Some(0), "{:#}", checked.report());
}

/// docs/limits.md `check-records`: the records of one check hold at most
/// 200,000 games (and 512 MiB once read) however many files they come in
/// (a file holds at most 200,000, §10.16's reader says); past either the
/// check does not run (exit 2) and says which file reached it. The attack:
/// a folder of two record files of 4 MB, each of 150,000 one-ply games.
/// Before: every game of every file was held, and a zip of 4 million games
/// took 3.97 GB before the check aborted; such a zip (the same game over
/// and over deflates about 1,000 times) is now refused for its ratio.
#[test]
fn more_games_than_a_check_may_hold_are_refused_within_the_memory_bound() {
    let scratch = scratch();
    let folder = scratch.path().join("many");
    std::fs::create_dir(&folder).expect("a folder");
    let game = b"[GameType \"Base\"]\n\n1. wS1\n\n";
    let games: Vec<u8> = game
        .iter()
        .copied()
        .cycle()
        .take(game.len() * 150_000)
        .collect();
    put(&folder, "1.pgn", &games);
    put(&folder, "2.pgn", &games);
    let checked = check_records(&folder.display().to_string(), 120, &[]);
    assert_eq!(checked.status, Some(2), "{}", checked.stderr);
    assert!(
        checked.stderr.contains("more than 200000 games") && checked.stderr.contains("2.pgn"),
        "{}",
        checked.stderr
    );
    assert!(checked.stdout.is_empty());
    let archive = put(scratch.path(), "many.zip", &zip_of(&[("many.pgn", &games)]));
    let checked = check_records(&archive, 120, &[]);
    let report = checked.report();
    assert_eq!(checked.status, Some(1), "{report:#}");
    assert!(
        incomplete(&report)
            .iter()
            .any(|r| r.contains("many.zip/many.pgn could not be read") && r.contains("ratio")),
        "{report:#}"
    );
}

/// docs/limits.md `sgf-items`: an SGF file of 62 MB of empty property
/// values (`[]`, 31 million of them) is refused at its 1,000,001st value,
/// within the memory bound. Before: each value was held, about 90
/// bytes each, and such a file took 3.5 to 5.2 GB.
#[test]
fn an_sgf_file_of_empty_values_is_refused_within_the_memory_bound() {
    let scratch = scratch();
    let text = format!("(;GM[27]SU[hive]C{}\n)", "[]".repeat(31_000_000));
    let file = put(scratch.path(), "empty-values.sgf", text.as_bytes());
    drop(text);
    let (status, out) = replay(&[&file], 60, &[]);
    assert_eq!(status, Some(1), "{out}");
    assert!(
        out.contains(
            "empty-values.sgf:1: too many property values: an SGF record may hold at most 1000000"
        ),
        "{out}"
    );
}

/// docs/limits.md `archive-entries`: an archive of 100,001 entries (empty
/// and stored, about 10 MB) is refused whole, before any entry is read;
/// one of 100,000 is read.
#[test]
fn an_archive_of_more_entries_than_the_limit_is_refused_whole() {
    let scratch = scratch();
    let stored = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let archive = |entries: usize| {
        let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
        zip.start_file("game.pgn", stored).expect("an entry");
        zip.write_all(GAME).expect("the game");
        for i in 1..entries {
            zip.start_file(format!("{i}.txt"), stored)
                .expect("an entry");
        }
        zip.finish().expect("the archive").into_inner()
    };
    let over = put(scratch.path(), "over.zip", &archive(100_001));
    let (status, text) = replay(&[&over], 60, &[]);
    assert_eq!(status, Some(1), "{text}");
    assert!(
        text.contains("the zip archive holds 100001 entries; the limit is 100000"),
        "{text}"
    );
    let at = put(scratch.path(), "at.zip", &archive(100_000));
    let (status, text) = replay(&[&at], 60, &[]);
    assert_eq!(status, Some(0), "{text}");
}

/// docs/limits.md `replay-jobs`: `replay --jobs` weighs a zip archive by
/// what its record entries decompress to, as its directory states (at most
/// 256 MiB), not by its size on disk: 8 MiB of blank lines deflate to 8 KB,
/// and the archive weighs 8 MiB and its 8 KB; an entry that is no record
/// weighs nothing, a record file its size, a FIFO nothing (unopened). Before: the budget counted
/// the archive's 8 KB, and `--jobs 4` on four such archives replayed all
/// four at once.
#[test]
fn replay_jobs_weigh_an_archive_by_what_it_decompresses_to() {
    let scratch = scratch();
    let blank = vec![b'\n'; 8 << 20];
    let bytes = zip_of(&[("blank.pgn", &blank), ("readme.txt", &blank)]);
    let archive = put(scratch.path(), "blank.zip", &bytes);
    assert_eq!(
        hive_oracle::input::bytes_once_read(Path::new(&archive)),
        bytes.len() as u64 + (8 << 20)
    );
    let record = put(scratch.path(), "game.pgn", GAME);
    assert_eq!(
        hive_oracle::input::bytes_once_read(Path::new(&record)),
        GAME.len() as u64
    );
    // a FIFO weighs nothing and is not opened (opening it would wait for a
    // writer): the reading refuses it as what it is
    let fifo = scratch.path().join("records.pgn.fifo");
    let made = command("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    assert_eq!(hive_oracle::input::bytes_once_read(&fifo), 0);
}

/// `count` two-ply games of Base, each with a tag of 16 random hex digits
/// (so that the text deflates about 3 times, as records do, not past the
/// ratio limit); `moves` is the movetext of each.
fn tagged_games(count: usize, moves: &str, seed: u64) -> Vec<u8> {
    let mut random = hive_oracle_rules::core::splitmix::SplitMix64::new(seed);
    let mut out = Vec::new();
    for _ in 0..count {
        let tag = random.next_u64();
        out.extend_from_slice(
            format!("[GameType \"Base\"]\n[Event \"{tag:016x}\"]\n\n{moves}\n\n").as_bytes(),
        );
    }
    out
}

/// The memory of the streaming runs, in KiB (112 MiB): `replay` peaks at
/// about 50 MiB of resident memory on these archives, while holding their
/// results took 186 MiB (400,000 games) before.
const STREAMED_KIB: u64 = 112 << 10;

/// `replay ARGS...` under [`STREAMED_KIB`]: its exit status, stdout and
/// stderr.
fn replay_streamed(args: &[&str]) -> (Option<i32>, String, String) {
    let out = command("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {STREAMED_KIB} && ulimit -t 120 && exec \"$0\" replay \"$@\""
        ))
        .arg(BIN)
        .args(args)
        .output()
        .expect("sh runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), stdout(&out), stderr)
}

/// docs/limits.md `replay-stream`: an archive's games are reported as they
/// are replayed, not held until the archive is done, and a run keeps only
/// the first 1,000 unreadable games for its text report (the JSON report
/// lists every one from a temporary file): 400,000 games in a 4.4 MB zip
/// and 300,000 games that do not read (two moves on one line, §10.16; two
/// entries, a file holding at most 200,000 games)
/// replay within 112 MiB of virtual memory, in both reports. Before: each
/// file's results were held whole, 400,000 games took 186 MiB of resident
/// memory (exit 2 under 150 MiB), 2 million 853 MiB, and 2 million
/// unreadable games 947 MiB (text) and 1,551 MiB (JSON).
#[test]
fn an_archives_games_are_streamed_within_a_memory_bound() {
    let scratch = scratch();
    let half = tagged_games(200_000, "1. wS1\n2. bG1 -wS1", 1);
    let other = tagged_games(200_000, "1. wS1\n2. bG1 -wS1", 2);
    let legal = put(
        scratch.path(),
        "legal.zip",
        &zip_of(&[("a.pgn", &half), ("b.pgn", &other)]),
    );
    let (status, text, stderr) = replay_streamed(&[&legal]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(
        text.lines().any(|l| l
            .split_whitespace()
            .eq(["all", "400000", "400000", "0", "0", "800000"])),
        "{text}"
    );
    let (status, json, stderr) = replay_streamed(&["--format", "json", &legal]);
    assert_eq!(status, Some(0), "{stderr}");
    let report: Value = serde_json::from_str(&json).expect("a JSON report");
    assert_eq!(report["games"].as_array().map(Vec::len), Some(400_000));

    let unreadable = put(
        scratch.path(),
        "unreadable.zip",
        &zip_of(&[
            ("bad.pgn", &tagged_games(150_000, "1. wS1 2. bG1 -wS1", 3)),
            ("worse.pgn", &tagged_games(150_000, "1. wS1 2. bG1 -wS1", 4)),
        ]),
    );
    let (status, text, stderr) = replay_streamed(&[&unreadable]);
    assert_eq!(status, Some(1), "{stderr}");
    let listed = text
        .lines()
        .filter(|l| l.starts_with("unreadable: ") && l.contains("unreadable.zip/bad.pgn: game "))
        .count();
    assert_eq!(listed, 1_000, "{stderr}");
    assert!(
        text.contains("unreadable: and 299000 more files or games, not listed"),
        "{stderr}"
    );
    assert!(text.contains("\nunreadable games: 300000\n"));
    let (status, json, stderr) = replay_streamed(&["--format", "json", &unreadable]);
    assert_eq!(status, Some(1), "{stderr}");
    let report: Value = serde_json::from_str(&json).expect("a JSON report");
    assert_eq!(report["unreadable"].as_array().map(Vec::len), Some(300_000));
    assert_eq!(report["summary"]["unreadable"], 300_000);
}
