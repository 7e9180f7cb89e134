//! `scoredesk-server export results` as an operator runs it (docs/exports.md): an
//! assessment of 300 seeded results out in the three formats with a summary; and
//! a failed export leaves the file it would have replaced as it was, with nothing
//! beside it.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

mod support;

use support::{run, run_refused};

#[test]
fn results_go_out_whole_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", dir.path().join("export.sqlite").display());
    run(&url, &["migrate"], None);
    let seeded = run(&url, &["seed", "--exam", "300"], None);
    let assessment = seeded.rsplit(' ').next().unwrap().trim().to_owned();
    let area = seeded
        .split("customer area ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .to_owned();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let export = |format: &str, file: &str| {
        let path = out.join(file);
        let said = run(
            &url,
            &[
                "export",
                "results",
                "--customer",
                &area,
                "--assessment",
                &assessment,
                "--format",
                format,
                "--output",
                path.to_str().unwrap(),
            ],
            None,
        );
        (said, std::fs::read(path).unwrap())
    };
    let (said, csv) = export("csv", "results.csv");
    assert!(said.contains("300 results written"), "{said}");
    assert!(
        said.contains("item analysis over 300 final results"),
        "{said}"
    );
    assert_eq!(String::from_utf8(csv).unwrap().lines().count(), 301);
    let (_, xlsx) = export("xlsx", "results.xlsx");
    assert!(xlsx.starts_with(b"PK"), "a workbook is a zip");
    let (_, gradebook) = export("oneroster", "gradebook.zip");
    assert!(gradebook.starts_with(b"PK"));

    // A failed export: the file it names is left as it was, nothing beside it.
    let kept = out.join("results.csv");
    let before = std::fs::read(&kept).unwrap();
    let refused = run_refused(
        &url,
        &[
            "export",
            "results",
            "--customer",
            &area,
            "--assessment",
            "99",
            "--format",
            "csv",
            "--output",
            kept.to_str().unwrap(),
        ],
        None,
    );
    assert!(refused.contains("has no assessment 99"), "{refused}");
    assert_eq!(std::fs::read(&kept).unwrap(), before);
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["gradebook.zip", "results.csv", "results.xlsx"]);
    let refused = run_refused(
        &url,
        &[
            "export",
            "results",
            "--customer",
            &area,
            "--assessment",
            &assessment,
            "--format",
            "pdf",
            "--output",
            kept.to_str().unwrap(),
        ],
        None,
    );
    assert!(
        refused.contains("the formats are csv, xlsx and oneroster"),
        "{refused}"
    );
    let refused = run_refused(
        &url,
        &[
            "export",
            "results",
            "--customer",
            "42",
            "--assessment",
            &assessment,
            "--format",
            "csv",
            "--output",
            kept.to_str().unwrap(),
        ],
        None,
    );
    assert!(
        refused.contains("customer area 42 does not exist"),
        "{refused}"
    );
}
