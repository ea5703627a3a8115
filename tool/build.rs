//! The build's identity for `hive-oracle --version`: the commit the source
//! was built from and the features enabled, as the environment variable
//! `HIVE_ORACLE_BUILD` ("commit 1a2b3c4d5e6f, features: check, cli").
//!
//! The commit comes from `git` when the package's folder is `tool/` at the
//! top of a git checkout, as it is in hive-oracle's repository (a published
//! crate unpacked inside another repository is not in its checkout); else it
//! is "unknown". A missing `git` or a failing command never fails the build.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let commit = repository_top(&manifest_dir)
        .and_then(|top| commit(&top))
        .unwrap_or_else(|| "unknown".to_string());
    let mut features: Vec<String> = std::env::vars()
        .filter_map(|(name, _)| {
            name.strip_prefix("CARGO_FEATURE_")
                .map(|feature| feature.to_lowercase().replace('_', "-"))
        })
        .filter(|feature| feature != "default")
        .collect();
    features.sort();
    let features = if features.is_empty() {
        "none".to_string()
    } else {
        features.join(", ")
    };
    println!("cargo:rustc-env=HIVE_ORACLE_BUILD=commit {commit}, features: {features}");
}

/// The output of `git ARGS` run in `dir`, trimmed, if it succeeds.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    Some(String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// The folder above the package's when the package is its `tool/` folder:
/// where hive-oracle's repository has its top.
fn repository_top(manifest_dir: &Path) -> Option<PathBuf> {
    let top = manifest_dir.parent()?;
    let ours = manifest_dir.file_name()? == "tool" && top.join("spec").is_dir();
    ours.then(|| top.to_path_buf())
}

/// The commit checked out in `dir` when `dir` is the top of a git checkout;
/// the files that say which commit it is are watched, so that a new commit
/// rebuilds the version.
fn commit(dir: &Path) -> Option<String> {
    let top = PathBuf::from(git(dir, &["rev-parse", "--show-toplevel"])?);
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if !same(&top, dir) {
        return None;
    }
    let hash = git(dir, &["rev-parse", "--short=12", "HEAD"])?;
    for watched in ["HEAD", "packed-refs"] {
        if let Some(path) = git(dir, &["rev-parse", "--git-path", watched]) {
            println!("cargo:rerun-if-changed={}", dir.join(path).display());
        }
    }
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        if let Some(path) = git(dir, &["rev-parse", "--git-path", &branch]) {
            println!("cargo:rerun-if-changed={}", dir.join(path).display());
        }
    }
    Some(hash)
}
