//! Malformed rosters, continued (corpus_tests.rs has the sound export): a zip
//! that says less than it holds, a broken zip, and the plain CSV's faults.

use std::io::Write;

use super::corpus_tests::{says, CLASSES, ENROLLMENTS, MANIFEST, USERS};
use super::read_roster;

#[test]
fn a_zip_that_says_less_than_it_holds_is_read_no_further_than_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("export.zip");
    let mut writer = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, text) in [
        ("manifest.csv", MANIFEST),
        ("classes.csv", CLASSES),
        ("enrollments.csv", ENROLLMENTS),
    ] {
        writer.start_file(name, options).unwrap();
        writer.write_all(text.as_bytes()).unwrap();
    }
    // 65 MB of zeros compress to a few kilobytes.
    writer.start_file("users.csv", options).unwrap();
    writer.write_all(USERS.as_bytes()).unwrap();
    let zeros = vec![b'0'; 1024 * 1024];
    for _ in 0..65 {
        writer.write_all(&zeros).unwrap();
    }
    writer.finish().unwrap();
    let problem = read_roster(&path).err().unwrap();
    says(&problem, "users.csv", None, None, "at most 64 MB");
    let garbage = dir.path().join("broken.zip");
    std::fs::write(&garbage, b"PK\x03\x04 not a zip at all").unwrap();
    assert!(read_roster(&garbage)
        .err()
        .unwrap()
        .message
        .contains("is not a readable zip"));
}

#[test]
fn a_plain_csv_is_read_and_its_faults_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("class.csv");
    std::fs::write(&path, "\u{feff}username,first_name,last_name,email,group\nana,Ana,\"Ruiz, María\",,Year 9\nana,Ana,\"Ruiz, María\",,Choir\nben,Ben,Ode,ben@example.org,Year 9\n").unwrap();
    let plan = read_roster(&path).unwrap().plan().unwrap();
    assert!(!plan.keyed);
    assert_eq!(plan.participants.len(), 2);
    assert_eq!(plan.participants[0].last_name, "Ruiz, María");
    assert_eq!(plan.groups.len(), 2);
    assert_eq!(plan.memberships.len(), 3);

    std::fs::write(&path, "login,first_name\nana,Ana\n").unwrap();
    says(
        &read_roster(&path).err().unwrap(),
        "class.csv",
        Some(1),
        None,
        "has no column username",
    );
    std::fs::write(
        &path,
        "username,first_name,last_name\nana,Ana,Ruiz\nana,Anna,Ruiz\n",
    )
    .unwrap();
    says(
        &read_roster(&path).unwrap().plan().unwrap_err(),
        "class.csv",
        Some(3),
        Some("username"),
        "other names or e-mail",
    );
    std::fs::write(&path, USERS).unwrap();
    says(
        &read_roster(&path).err().unwrap(),
        "class.csv",
        None,
        None,
        "is a file of a OneRoster export",
    );
    std::fs::write(&path, "username,first_name\n").unwrap();
    says(
        &read_roster(&path).err().unwrap(),
        "class.csv",
        None,
        None,
        "has no participant rows",
    );
}
