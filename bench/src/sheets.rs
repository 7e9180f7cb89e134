//! Recognition throughput (`scoredesk-bench --sheets DIR`, from `scripts/bench
//! --sheets`): the recognition corpus's scans (written by the corpus test, with
//! `questions.json`, the sheet's questions) read as `sheets scan` reads them,
//! file read, decode, marks, code, bubbles and essay crops, on one thread and on
//! as many as the machine has cores; per resolution, in pages per second; and
//! the 300 dpi scans from one PDF, as a school's scanner gives a batch.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use rayon::prelude::*;
use scoredesk_sheets::layout::{lay_out, PageLayout, Shape, SheetQuestion};
use scoredesk_sheets::recognise;
use serde::Deserialize;

#[derive(Deserialize)]
struct Question {
    order: i32,
    choices: Option<usize>,
    single: Option<bool>,
    essay: Option<i32>,
    /// A short answer's box.
    #[serde(default)]
    written: bool,
    /// A number's rows.
    number: Option<usize>,
    /// Per blank, how many options its own list has (0: a box).
    blanks: Option<Vec<usize>>,
    /// A picture's width and height (hundredths of its pixels) and most places.
    picture: Option<(u32, u32, usize)>,
}

fn layout(dir: &Path) -> anyhow::Result<Vec<PageLayout>> {
    let file = dir.join("questions.json");
    let questions: Vec<Question> = serde_json::from_slice(
        &std::fs::read(&file).with_context(|| format!("reading {}", file.display()))?,
    )?;
    let questions: Vec<SheetQuestion> = questions
        .into_iter()
        .map(|q| SheetQuestion {
            order: q.order,
            shape: match q.essay {
                _ if q.written => Shape::Written,
                _ if q.number.is_some() => Shape::Number {
                    positions: q.number.unwrap_or(0),
                },
                _ if q.picture.is_some() => {
                    let (width, height, most) = q.picture.unwrap_or((1, 1, 0));
                    Shape::Picture {
                        width,
                        height,
                        most,
                    }
                }
                _ if q.blanks.is_some() => Shape::Blanks {
                    options: q.blanks.unwrap_or_default(),
                },
                Some(max_score) => Shape::Essay { max_score },
                None => {
                    let count = q.choices.unwrap_or(0);
                    Shape::Choices {
                        count,
                        most: if q.single.unwrap_or(true) { 1 } else { count },
                    }
                }
            },
        })
        .collect();
    Ok(lay_out(&questions))
}

/// Reads one scan in full; its resolution (dpi) as the file name says it.
fn read(file: &Path, layout: &[PageLayout]) -> anyhow::Result<()> {
    let bytes = std::fs::read(file)?;
    let scan = recognise::open(&bytes).with_context(|| file.display().to_string())?;
    let page = &layout[usize::from(scan.code.page) - 1];
    scan.read(page)?;
    Ok(())
}

/// Pages per second over `files`, on `threads` threads.
fn throughput(files: &[PathBuf], layout: &[PageLayout], threads: usize) -> anyhow::Result<f64> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let started = Instant::now();
    pool.install(|| files.par_iter().try_for_each(|file| read(file, layout)))?;
    Ok(files.len() as f64 / started.elapsed().as_secs_f64())
}

pub fn run(dir: &Path) -> anyhow::Result<String> {
    let layout = layout(dir)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut out = String::from(
        "| scans | pages | pages/s, 1 thread | pages/s, all cores |\n|---|---|---|---|\n",
    );
    for dpi in [300, 150] {
        // Named <batch>-<attempt>-<page>-<dpi>-<seed>.<ext> by the corpus test.
        let marker = format!("-{dpi}-");
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| {
                path.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.contains(&marker) && !n.ends_with(".json"))
            })
            .collect();
        files.sort();
        anyhow::ensure!(!files.is_empty(), "no {dpi} dpi scans in {}", dir.display());
        // Once untimed, so that the files are in the page cache for both runs.
        throughput(&files, &layout, cores)?;
        let one = throughput(&files, &layout, 1)?;
        let all = throughput(&files, &layout, cores)?;
        writeln!(
            out,
            "| {dpi} dpi | {} | {one:.1} | {all:.1} ({cores} cores) |",
            files.len()
        )?;
        if dpi == 300 {
            // A scanner's PDF holds JPEG pages: the corpus's JPEG scans, bound.
            let jpegs: Vec<PathBuf> = files
                .iter()
                .filter(|file| file.extension().is_some_and(|e| e == "jpg"))
                .cloned()
                .collect();
            let (one, all) = from_pdf(dir, &jpegs, &layout, cores)?;
            writeln!(
                out,
                "| {dpi} dpi JPEG scans, one PDF (img2pdf), taken out by pdfimages | {} | {one:.1} | {all:.1} ({cores} cores) |",
                jpegs.len()
            )?;
        }
    }
    Ok(out)
}

/// Pages per second from one PDF of `files` (bound by img2pdf, its JPEGs kept
/// as they are, as a scanner's PDF holds them): its page images taken out by
/// poppler's pdfimages as `sheets scan` takes them, then read; on one thread
/// and on all cores, the taking out timed in both.
fn from_pdf(
    dir: &Path,
    files: &[PathBuf],
    layout: &[PageLayout],
    cores: usize,
) -> anyhow::Result<(f64, f64)> {
    let work = dir.join("pdf");
    std::fs::create_dir_all(&work)?;
    let pdf = work.join("batch.pdf");
    let status = std::process::Command::new("img2pdf")
        .args(files)
        .arg("-o")
        .arg(&pdf)
        .status()
        .context("img2pdf (scripts/bench installs it)")?;
    anyhow::ensure!(status.success(), "img2pdf failed");
    let mut rates = Vec::new();
    for threads in [cores, 1, cores] {
        let taken = work.join(format!("taken-{threads}-{}", rates.len()));
        std::fs::create_dir_all(&taken)?;
        let started = Instant::now();
        let images = scoredesk_sheets::pdf::page_images(&pdf, &taken)
            .map_err(|error| anyhow::anyhow!("{error}"))?;
        let images: Vec<PathBuf> = images.into_iter().map(|(_, path)| path).collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        pool.install(|| images.par_iter().try_for_each(|file| read(file, layout)))?;
        rates.push(images.len() as f64 / started.elapsed().as_secs_f64());
        std::fs::remove_dir_all(&taken)?;
    }
    // The first run only warms the page cache.
    Ok((rates[1], rates[2]))
}
