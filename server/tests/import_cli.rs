//! `scoredesk-server import qti` as an operator runs it: a package imported with a
//! report, again with nothing changed, previewed; and zip bombs refused within
//! bounded memory, measured as the peak resident size of the import's own process.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

mod support;

use std::io::Write;
use std::path::Path;
use std::process::Command;

use support::{run, run_refused, BINARY};

const ITEM: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="q1" title="Capitals" adaptive="false" timeDependent="false">
<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>b</value></correctResponse></responseDeclaration>
<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float" normalMaximum="1"/>
<itemBody><p>The capital of France?</p><choiceInteraction responseIdentifier="RESPONSE" maxChoices="1">
<simpleChoice identifier="a">Lyon</simpleChoice><simpleChoice identifier="b">Paris</simpleChoice></choiceInteraction></itemBody>
<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>
</assessmentItem>"#;

const MANIFEST: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="cli"><metadata><lom><general><title><string>Capitals</string></title></general></lom></metadata>
<resources><resource identifier="q1" type="imsqti_item_xmlv2p1" href="items/q1.xml"><file href="items/q1.xml"/></resource></resources></manifest>"#;

fn write_zip(path: &Path, entries: &[(&str, &[u8])]) {
    let mut writer = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        writer.start_file(*name, options).unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.finish().unwrap();
}

/// A fresh SQLite database with one customer area; its URL and the area.
fn area(dir: &Path) -> (String, String) {
    let url = format!("sqlite:{}", dir.join("import.sqlite").display());
    run(&url, &["migrate"], None);
    let area = run(&url, &["customer", "add", "--name", "Importers"], None)
        .trim()
        .to_owned();
    (url, area)
}

#[test]
fn a_package_is_imported_reported_and_imported_again_without_change() {
    let dir = tempfile::tempdir().unwrap();
    let (url, area) = area(dir.path());
    let package = dir.path().join("capitals.zip");
    write_zip(
        &package,
        &[
            ("imsmanifest.xml", MANIFEST.as_bytes()),
            ("items/q1.xml", ITEM.as_bytes()),
        ],
    );
    let file = package.to_str().unwrap();
    let preview = run(
        &url,
        &["import", "qti", file, "--customer", &area, "--preview"],
        None,
    );
    assert!(
        preview.contains("\"Capitals\" would be created"),
        "{preview}"
    );
    assert!(preview.contains("preview: nothing was stored"), "{preview}");
    let first = run(&url, &["import", "qti", file, "--customer", &area], None);
    assert!(first.contains("\"Capitals\" was created"), "{first}");
    assert!(
        first.contains("created (revision 1): q1 multiple_choice, max 1, 2 choices, scored by match_correct [items/q1.xml]"),
        "{first}"
    );
    let again = run(&url, &["import", "qti", file, "--customer", &area], None);
    assert!(again.contains("was unchanged"), "{again}");
    assert!(again.contains("unchanged (revision 1): q1"), "{again}");
    let missing = run_refused(&url, &["import", "qti", file, "--customer", "999"], None);
    assert!(
        missing.contains("customer area 999 does not exist"),
        "{missing}"
    );
}

/// Runs the import of `package` in a process of its own; (whether it succeeded,
/// what it said, its peak resident size in KiB), the size read with getrusage by a
/// Python parent that does nothing else.
fn import_measured(url: &str, area: &str, package: &Path) -> (bool, String, u64) {
    run_measured(url, area, "qti", package)
}

/// `import <what> FILE` in a process of its own, measured as [`import_measured`].
fn run_measured(url: &str, area: &str, what: &str, file: &Path) -> (bool, String, u64) {
    let script = "import resource, subprocess, sys\n\
                  done = subprocess.run(sys.argv[1:], capture_output=True)\n\
                  sys.stderr.write(done.stderr.decode())\n\
                  print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n\
                  sys.exit(done.returncode)";
    let output = Command::new("python3")
        .args(["-c", script, BINARY, "--database-url", url, "import", what])
        .arg(file)
        .args(["--customer", area])
        // A backtrace printed with the error would load the binary's debug info:
        // its memory is not the import's.
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .output()
        .unwrap();
    let peak: u64 = String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        peak,
    )
}

/// A zip whose item inflates to 300 MB, written by Python's zipfile (zlib in C: a
/// second, where a debug build of ours would take many).
fn bomb(path: &Path) {
    let script = "import sys, zipfile\n\
                  with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n\
                  \x20   z.writestr('imsmanifest.xml', sys.argv[2])\n\
                  \x20   z.writestr('items/q1.xml', '<assessmentItem>' + ' ' * 300_000_000 + '</assessmentItem>')";
    let status = Command::new("python3")
        .args(["-c", script])
        .arg(path)
        .arg(MANIFEST)
        .status()
        .unwrap();
    assert!(status.success());
}

/// `bytes` (a zip) with the uncompressed size `name`'s headers claim set to `claim`.
fn lie_about_size(bytes: &mut [u8], name: &str, claim: u32) {
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let u16_at =
        |b: &[u8], at: usize| u16::from_le_bytes(b[at..at + 2].try_into().unwrap()) as usize;
    let end = (0..bytes.len() - 21)
        .rev()
        .find(|&at| bytes[at..at + 4] == [0x50, 0x4b, 0x05, 0x06])
        .unwrap();
    let mut at = u32_at(bytes, end + 16) as usize;
    for _ in 0..u16_at(bytes, end + 10) {
        let name_len = u16_at(bytes, at + 28);
        let extra = u16_at(bytes, at + 30);
        let comment = u16_at(bytes, at + 32);
        if &bytes[at + 46..at + 46 + name_len] == name.as_bytes() {
            bytes[at + 24..at + 28].copy_from_slice(&claim.to_le_bytes());
            let local = u32_at(bytes, at + 42) as usize;
            bytes[local + 22..local + 26].copy_from_slice(&claim.to_le_bytes());
            return;
        }
        at += 46 + name_len + extra + comment;
    }
    panic!("{name} is not in the zip");
}

#[test]
fn zip_bombs_are_refused_within_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let (url, area) = area(dir.path());
    let honest = dir.path().join("bomb.zip");
    bomb(&honest);
    assert!(
        std::fs::metadata(&honest).unwrap().len() < 2_000_000,
        "a small file"
    );
    let (ok, said, peak) = import_measured(&url, &area, &honest);
    assert!(!ok);
    assert!(
        said.contains("items/q1.xml: larger than 4194304 bytes"),
        "{said}"
    );
    assert!(peak < 128 * 1024, "peak resident size {peak} KiB");

    // The same bomb, its headers claiming 1,000 bytes: the bound holds on what is
    // read, not on what the header says.
    let mut bytes = std::fs::read(&honest).unwrap();
    lie_about_size(&mut bytes, "items/q1.xml", 1_000);
    let lying = dir.path().join("lying.zip");
    std::fs::write(&lying, bytes).unwrap();
    let (ok, said, peak) = import_measured(&url, &area, &lying);
    assert!(!ok);
    assert!(said.contains("items/q1.xml"), "{said}");
    assert!(peak < 128 * 1024, "peak resident size {peak} KiB");
}

/// `import roster` as an operator runs it: the repository's OneRoster export,
/// zipped as a school's system gives it, previewed, imported, imported again with
/// nothing changed; a plain CSV added; a malformed file refused naming its line and
/// column, with nothing stored.
#[test]
fn a_roster_is_imported_reported_and_imported_again_without_change() {
    let dir = tempfile::tempdir().unwrap();
    let (url, area) = area(dir.path());
    let export =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/rosters/westbrook-1.2");
    let files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&export)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            (
                entry.file_name().to_string_lossy().into_owned(),
                std::fs::read(entry.path()).unwrap(),
            )
        })
        .collect();
    let zipped = dir.path().join("westbrook.zip");
    let entries: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    write_zip(&zipped, &entries);
    let file = zipped.to_str().unwrap();

    let preview = run(
        &url,
        &["import", "roster", file, "--customer", &area, "--preview"],
        None,
    );
    assert!(
        preview.contains("OneRoster 1.2: participants would be created 4, updated 0, unchanged 0"),
        "{preview}"
    );
    assert!(preview.contains("preview: nothing was stored"), "{preview}");
    let first = run(&url, &["import", "roster", file, "--customer", &area], None);
    assert!(first.contains("participants were created 4"), "{first}");
    assert!(
        first.contains("groups were created 3, updated 0, unchanged 0"),
        "{first}"
    );
    assert!(
        first.contains("memberships were added 5, removed 0"),
        "{first}"
    );
    assert!(first.contains("not participants: 1 guardian"), "{first}");
    assert!(first.contains("not participants: 1 teacher"), "{first}");
    let again = run(&url, &["import", "roster", file, "--customer", &area], None);
    assert!(
        again.contains("created 0, updated 0, unchanged 4"),
        "{again}"
    );
    assert!(
        again.contains("memberships were added 0, removed 0"),
        "{again}"
    );

    let plain = dir.path().join("choir.csv");
    std::fs::write(&plain, "username,first_name,last_name,email,group\nzoe.garcia,Zoë,\"García, Jr.\",zoe.garcia@westbrook.example,Choir\nnew.singer,Noor,Haddad,,Choir\n").unwrap();
    let added = run(
        &url,
        &[
            "import",
            "roster",
            plain.to_str().unwrap(),
            "--customer",
            &area,
        ],
        None,
    );
    assert!(
        added.contains("plain CSV: participants were created 1, updated 0, unchanged 1"),
        "{added}"
    );
    assert!(added.contains("groups were created 1"), "{added}");

    std::fs::write(
        &plain,
        "username,first_name,last_name\nana,Ana,Ruiz\n,Ben,Ode\n",
    )
    .unwrap();
    let refused = run_refused(
        &url,
        &[
            "import",
            "roster",
            plain.to_str().unwrap(),
            "--customer",
            &area,
        ],
        None,
    );
    assert!(
        refused.contains("choir.csv, line 3, column username: is empty"),
        "{refused}"
    );
    let again = run(
        &url,
        &["import", "roster", file, "--customer", &area, "--preview"],
        None,
    );
    assert!(
        again.contains("unchanged 4"),
        "nothing of the refused file was stored: {again}"
    );
}

/// A 300 MB file that starts as a Moodle XML bank: refused by its size, having read
/// no more of it than a bank may hold (32 MiB).
#[test]
fn a_300_mb_moodle_bank_is_refused_within_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let (url, area) = area(dir.path());
    let path = dir.path().join("bank.xml");
    let mut file = std::fs::File::create(&path).unwrap();
    file.write_all(b"<?xml version=\"1.0\"?><quiz><question type=\"essay\"><name><text>")
        .unwrap();
    let block = vec![b'x'; 1024 * 1024];
    for _ in 0..300 {
        file.write_all(&block).unwrap();
    }
    file.write_all(b"</text></name></question></quiz>").unwrap();
    drop(file);
    let (ok, said, peak) = import_measured(&url, &area, &path);
    assert!(!ok);
    assert!(said.contains("an XML file of at most"), "{said}");
    eprintln!("peak resident size {peak} KiB");
    assert!(peak < 128 * 1024, "peak resident size {peak} KiB");
}

/// Three 200 MB rosters, written by Python (fast where a debug build of ours is
/// not): a plain CSV, a zip that stores a 200 MB users.csv as it is, and a small
/// zip whose users.csv inflates to 200 MB while its headers claim 1,000 bytes. Each
/// is refused naming the file and the limit before anything is stored, and the
/// process never holds more than one file's limit (64 MB) of it.
#[test]
fn a_200_mb_roster_is_refused_within_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let (url, area) = area(dir.path());
    let script = "import sys, zipfile\n\
                  kind, path = sys.argv[1], sys.argv[2]\n\
                  row = b'student{:07d},Ana,Ruiz,ana@school.example,Year 9\\n'\n\
                  body = b'username,first_name,last_name,email,group\\n' + b''.join(row.replace(b'{:07d}', b'%07d' % (i % 10**7)) for i in range(4_200_000))\n\
                  if kind == 'csv':\n\
                  \x20   open(path, 'wb').write(body)\n\
                  else:\n\
                  \x20   method = zipfile.ZIP_STORED if kind == 'stored' else zipfile.ZIP_DEFLATED\n\
                  \x20   with zipfile.ZipFile(path, 'w', method) as z:\n\
                  \x20       z.writestr('manifest.csv', 'propertyName,value\\noneroster.version,1.1\\n')\n\
                  \x20       z.writestr('users.csv', body)";
    for (kind, file, says) in [
        ("csv", "big.csv", "big.csv"),
        ("stored", "stored.zip", "users.csv"),
        ("lying", "lying.zip", "users.csv"),
    ] {
        let path = dir.path().join(file);
        let status = Command::new("python3")
            .args(["-c", script, kind])
            .arg(&path)
            .status()
            .unwrap();
        assert!(status.success(), "{kind}");
        let size = std::fs::metadata(&path).unwrap().len();
        if kind == "lying" {
            let mut bytes = std::fs::read(&path).unwrap();
            lie_about_size(&mut bytes, "users.csv", 1_000);
            std::fs::write(&path, bytes).unwrap();
            assert!(size < 20_000_000, "a small zip: {size}");
        } else {
            assert!(size > 200_000_000, "{kind}: {size} bytes");
        }
        let (ok, said, peak) = run_measured(&url, &area, "roster", &path);
        assert!(!ok, "{kind}");
        assert!(
            said.contains(says) && said.contains("a roster's file may be at most 64 MB"),
            "{kind}: {said}"
        );
        eprintln!("{kind}: {size} bytes, peak resident size {peak} KiB");
        assert!(peak < 160 * 1024, "{kind}: peak resident size {peak} KiB");
        std::fs::remove_file(&path).unwrap();
    }
}
