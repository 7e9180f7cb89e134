//! `scoredesk-server import qti FILE --customer N`: a QTI package into a customer
//! area, with a progress bar while its items are read and a report at the end; and
//! `import roster FILE --customer N`: a school's participants and classes
//! (docs/rosters.md).

use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};

use crate::import::{self, ImportReport, Mode, RosterReport};
use crate::model::area::CustomerArea;
use crate::store::Store;

#[derive(Subcommand)]
pub enum ImportCommand {
    /// A QTI 1.2, 2.1, 2.2 or 3.0 content package (a zip with imsmanifest.xml), a
    /// Moodle XML question bank, or a bare QTI 1.2 XML file.
    Qti {
        file: PathBuf,
        #[arg(long)]
        customer: i32,
        /// Show what would be imported, and store nothing.
        #[arg(long)]
        preview: bool,
    },
    /// A roster: a OneRoster 1.x bulk CSV export (a zip or a folder), or a plain CSV
    /// with the header username,first_name,last_name,email,group.
    Roster {
        file: PathBuf,
        #[arg(long)]
        customer: i32,
        /// Show what would change, and store nothing.
        #[arg(long)]
        preview: bool,
    },
}

pub async fn run(store: &Store, command: ImportCommand) -> anyhow::Result<()> {
    match command {
        ImportCommand::Qti {
            file,
            customer,
            preview,
        } => qti(store, area(store, customer).await?, file, preview).await,
        ImportCommand::Roster {
            file,
            customer,
            preview,
        } => {
            let mode = if preview { Mode::Preview } else { Mode::Commit };
            let report = import::import_roster(store, area(store, customer).await?, &file, mode)
                .await
                .with_context(|| format!("importing the roster {}", file.display()))?;
            let _ =
                std::io::Write::write_all(&mut std::io::stdout(), roster_text(&report).as_bytes());
            Ok(())
        }
    }
}

pub(super) async fn area(store: &Store, customer: i32) -> anyhow::Result<CustomerArea> {
    let area = CustomerArea::new(customer)
        .ok_or_else(|| anyhow::anyhow!("{customer} is not a customer area ID"))?;
    if !store.customer_exists(customer).await? {
        bail!("customer area {customer} does not exist");
    }
    Ok(area)
}

/// A roster's report as lines for a terminal.
fn roster_text(report: &RosterReport) -> String {
    let c = &report.counts;
    let verb = if report.preview { "would be" } else { "were" };
    let mut out = format!(
        "{}: participants {verb} created {}, updated {}, unchanged {}\n",
        report.format, c.participants_created, c.participants_updated, c.participants_unchanged
    );
    out.push_str(&format!(
        "groups {verb} created {}, updated {}, unchanged {}\n",
        c.groups_created, c.groups_updated, c.groups_unchanged
    ));
    out.push_str(&format!(
        "memberships {verb} added {}, removed {}\n",
        c.memberships_added, c.memberships_removed
    ));
    if c.participants_left > 0 || c.groups_emptied > 0 {
        out.push_str(&format!("gone from the school's system: {} participants left their groups, {} groups emptied (results are kept)\n", c.participants_left, c.groups_emptied));
    }
    for (role, count) in &report.not_participants {
        out.push_str(&format!("not participants: {count} {role}\n"));
    }
    if report.preview {
        out.push_str("preview: nothing was stored\n");
    }
    out
}

/// The file, but never more of it than a package (or, for an XML file, a bank)
/// may hold, and one byte: a larger file is then refused by its size without being
/// read whole.
fn read_bounded(file: &std::path::Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut reader = std::fs::File::open(file)?;
    let mut bytes = Vec::new();
    (&mut reader).take(4096).read_to_end(&mut bytes)?;
    let limit = if scoredesk_qti::is_document(&bytes) {
        scoredesk_qti::limits::MAX_DOCUMENT_BYTES
    } else {
        scoredesk_qti::limits::MAX_PACKAGE_BYTES
    };
    reader
        .take((limit + 1).saturating_sub(bytes.len()) as u64)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

async fn qti(
    store: &Store,
    area: CustomerArea,
    file: PathBuf,
    preview: bool,
) -> anyhow::Result<()> {
    let bytes = read_bounded(&file).with_context(|| format!("reading {}", file.display()))?;
    let bar = ProgressBar::new(0).with_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} items")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message("reading");
    let reading = tokio::task::spawn_blocking({
        let bar = bar.clone();
        move || {
            import::read_qti(&bytes, &mut |done, total| {
                bar.set_length(total as u64);
                bar.set_position(done as u64);
            })
        }
    })
    .await?;
    bar.finish_and_clear();
    let package = reading.with_context(|| format!("importing {}", file.display()))?;
    let name = file
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mode = if preview { Mode::Preview } else { Mode::Commit };
    let report = import::store_qti(store, area, &package, &name, mode).await?;
    // A reader that stops early (`| head`) is not an error of the import.
    let _ = std::io::Write::write_all(&mut std::io::stdout(), text(&report).as_bytes());
    Ok(())
}

/// The report as lines for a terminal.
fn text(report: &ImportReport) -> String {
    let mut out = String::new();
    let verb = if report.preview { "would be" } else { "was" };
    out.push_str(&format!(
        "assessment {} \"{}\" {verb} {} ({}, {} images inlined, {} topics made)\n",
        report.assessment_id,
        report.assessment_name,
        report.assessment,
        // "2.x" is a QTI version; "Moodle XML" names its format itself.
        if report.qti_version.starts_with(|c: char| c.is_ascii_digit()) {
            format!("QTI {}", report.qti_version)
        } else {
            report.qti_version.to_string()
        },
        report.images,
        report.topics_created,
    ));
    for question in &report.questions {
        out.push_str(&format!(
            "  {:>3}. question {} {} (revision {}): {} {}, max {}, {} choices, scored by {} [{}]\n",
            question.position,
            question.question_id,
            question.outcome,
            question.revision,
            question.item,
            question.question_type,
            question.max_score,
            question.choices,
            question.scoring,
            question.file,
        ));
        let kind = match question.question_type {
            "fill_in_blanks" => "blank",
            "point" => "area",
            _ => "pair",
        };
        let listed = !question.parts.is_empty() || question.question_type == "point";
        for key in question.keys.iter().filter(|_| listed) {
            out.push_str(&format!("       {kind}: {key}\n"));
        }
        for note in &question.notes {
            out.push_str(&format!("       note: {note}\n"));
        }
    }
    for skipped in &report.skipped {
        out.push_str(&format!(
            "  skipped {} [{}]: {}\n",
            skipped.item, skipped.file, skipped.reason
        ));
    }
    for band in &report.score_bands {
        out.push_str(&format!(
            "  score band from {}%: {}\n",
            band.min_percentage, band.title
        ));
    }
    for note in &report.notes {
        out.push_str(&format!("  note: {note}\n"));
    }
    if report.preview {
        out.push_str("preview: nothing was stored\n");
    }
    out
}
