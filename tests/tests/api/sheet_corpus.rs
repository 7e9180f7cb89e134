//! The recognition corpus (issues 18 and 36, docs/paper-sheets.md): four
//! batches' sheets printed through the real print path (the signed link,
//! headless Chromium to PDF, 300 dpi), marked by each participant in their own
//! way (fills, ticks, crosses or circles round the letter, with light fills,
//! erasures and rubbed-out crosses), handwriting and one- or two-letter answers
//! in the essay frames, then a scanner's damage (uneven light included); each
//! attempt scanned two or three times (300 and 150 dpi). Every code must be
//! read; no clear mark or blank may be read as the other (0 errors), though a
//! person may be asked, which is counted by marking style against its target;
//! every ambiguous bubble is left unsure, every essay cut out where it was
//! written and no short answer dropped. The figures are printed for
//! docs/benchmarks.md; with SCOREDESK_SHEETS_CORPUS set, the scans are kept
//! there for `scripts/bench --sheets`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use scoredesk_e2e::{Backend, TestApp};
use scoredesk_paper::{rng, scan, Damage, Pencil, ScanFormat};
use scoredesk_sheets::layout::{PageLayout, Shape, SheetQuestion};
use scoredesk_sheets::recognise::{self, ESSAY_PX_PER_MM};
use scoredesk_sheets::{assemble, Answer, Doubted, SheetCode, Verdict};

use scoredesk_e2e::sheets::{deliver_paper, mark_sheet_as, printed, Expect, Style};

/// Where the essay crop starts inside its frame (sheets::recognise::essays).
const CROP_INSET: f32 = 1.2;

#[derive(Default)]
struct Tally {
    pages: usize,
    codes_read: usize,
    upside_down: usize,
    bubbles: usize,
    clear: usize,
    clear_wrong: Vec<String>,
    ambiguous: usize,
    ambiguous_decided: Vec<String>,
    questions_wrong: Vec<String>,
    essays: usize,
    essays_wrong: Vec<String>,
    /// One- or two-letter answers in essay frames: how many, how many went to a
    /// person as a doubt (the rest were taken as written).
    short_essays: usize,
    short_essays_doubted: usize,
    /// Pages lit unevenly enough (a shade of 0.34 or more) that one threshold
    /// lost their marks before the light was evened out.
    shaded_pages: usize,
    /// Per marking style: questions with clear marks, and how many of them a
    /// person was asked about.
    by_style: BTreeMap<Style, (usize, usize)>,
    /// Per kind of pencil: clear bubbles read as unsure.
    clear_unsure: BTreeMap<&'static str, usize>,
    /// Darkness per kind of pencil: (least, most).
    darkness: BTreeMap<&'static str, (f32, f32)>,
}

impl Tally {
    fn seen(&mut self, kind: &'static str, darkness: f32) {
        let entry = self.darkness.entry(kind).or_insert((f32::MAX, f32::MIN));
        entry.0 = entry.0.min(darkness);
        entry.1 = entry.1.max(darkness);
    }
}

fn kind_name(pencil: Option<Pencil>) -> &'static str {
    match pencil {
        None => "untouched",
        Some(Pencil::Full) => "full",
        Some(Pencil::Partial) => "partial",
        Some(Pencil::Light) => "light",
        Some(Pencil::Erased) => "erased",
        Some(Pencil::Smudged) => "smudged",
        Some(Pencil::Tick) => "tick",
        Some(Pencil::Cross) => "cross",
        Some(Pencil::Circle) => "circle",
        Some(Pencil::CrossErased) => "cross rubbed out",
    }
}

/// One scan of one attempt: its pages scanned with `damage`, read, and checked.
fn check_attempt(
    layout: &[PageLayout],
    questions: &[SheetQuestion],
    printed: &[(SheetCode, &image::GrayImage)],
    seed: u64,
    dpi: f32,
    keep: Option<&PathBuf>,
    tally: &mut Tally,
) {
    let mut random = rng(seed);
    let pages: Vec<image::GrayImage> = printed.iter().map(|(_, page)| (*page).clone()).collect();
    let style = Style::random(&mut random);
    let marked = mark_sheet_as(style, true, layout, questions, &pages, &mut random);
    let mut readings = Vec::new();
    for ((code, _), page) in printed.iter().zip(&marked.pages) {
        let damage = Damage::random(&mut random, dpi);
        let bytes = scan(page, damage, seed ^ u64::from(code.page));
        if let Some(dir) = keep {
            let ext = match damage.format {
                ScanFormat::Png => "png",
                ScanFormat::Jpeg(_) => "jpg",
                ScanFormat::Tiff => "tif",
            };
            let name = format!(
                "{}-{}-{}-{dpi}-{seed}.{ext}",
                code.batch, code.attempt, code.page
            );
            std::fs::write(dir.join(name), &bytes).unwrap();
        }
        tally.pages += 1;
        tally.shaded_pages += usize::from(damage.shade >= 0.34);
        let scanned = match recognise::open(&bytes) {
            Ok(scanned) => scanned,
            Err(error) => panic!("{code:?} with {damage:?}: {error}"),
        };
        assert_eq!(scanned.code, *code, "{damage:?}");
        tally.codes_read += 1;
        assert_eq!(scanned.upside_down, damage.upside_down, "{code:?}");
        tally.upside_down += usize::from(damage.upside_down);
        let reading = scanned.read(&layout[usize::from(code.page) - 1]).unwrap();
        for bubble in &reading.bubbles {
            tally.bubbles += 1;
            let pencil = marked
                .pencil
                .get(&(bubble.question, bubble.choice))
                .copied();
            tally.seen(kind_name(pencil), bubble.darkness);
            let what = format!(
                "attempt {} question {} choice {} ({}, darkness {:.3}, {damage:?})",
                code.attempt,
                bubble.question,
                bubble.choice,
                kind_name(pencil),
                bubble.darkness
            );
            match pencil.map_or(Some(false), Pencil::clear) {
                Some(marked) => {
                    tally.clear += 1;
                    let expected = if marked {
                        Verdict::Marked
                    } else {
                        Verdict::Blank
                    };
                    // Unsure is never wrong (a person looks), only counted.
                    if bubble.verdict == Verdict::Unsure {
                        *tally.clear_unsure.entry(kind_name(pencil)).or_default() += 1;
                    } else if bubble.verdict != expected {
                        tally.clear_wrong.push(what);
                    }
                }
                None => {
                    tally.ambiguous += 1;
                    if bubble.verdict != Verdict::Unsure {
                        tally.ambiguous_decided.push(what);
                    }
                }
            }
        }
        readings.push(reading);
    }
    let attempt = assemble(questions, &readings).unwrap();
    for (question, expect) in &marked.expect {
        let answer = attempt.answers.iter().find(|a| a.question() == *question);
        let doubt = attempt.doubts.iter().find(|d| d.question == *question);
        if let Expect::Choices(_) = expect {
            let entry = tally.by_style.entry(style).or_default();
            entry.0 += 1;
            entry.1 += usize::from(doubt.is_some());
        }
        let right = match (expect, answer, doubt) {
            (Expect::Choices(want), Some(Answer::Choices { selected, .. }), None) => {
                want == selected
            }
            // Clear marks a person was asked about: not wrong, counted above.
            (Expect::Choices(_), None, Some(_)) => true,
            // Fills' doubts are the reader's own reason; strokes may make a
            // second mark unsure rather than a second mark.
            (Expect::Doubt(reason), None, Some(doubt)) => {
                style != Style::Fill || doubt.reason == *reason
            }
            (Expect::ShortEssay(_), answer, doubt) => {
                tally.short_essays += 1;
                match (answer, doubt) {
                    (None, Some(doubt)) if matches!(doubt.doubted, Doubted::Essay { .. }) => {
                        tally.short_essays_doubted += 1;
                        true
                    }
                    (Some(Answer::Essay { png: Some(_), .. }), None) => true,
                    _ => false,
                }
            }
            (Expect::Essay(written), Some(Answer::Essay { png, .. }), None) => {
                tally.essays += 1;
                match (written, png) {
                    (None, None) => true,
                    (Some(centre), Some(png)) => {
                        let frame = layout
                            .iter()
                            .flat_map(|p| &p.essays)
                            .find(|e| e.question == *question)
                            .unwrap()
                            .frame;
                        let found = ink_centre(png);
                        let x = frame.x + CROP_INSET + found.0 / ESSAY_PX_PER_MM;
                        let y = frame.y + CROP_INSET + found.1 / ESSAY_PX_PER_MM;
                        let off = (x - centre.x).hypot(y - centre.y);
                        if off > 1.5 {
                            tally.essays_wrong.push(format!(
                                "attempt {} essay {question}: the crop's ink is {off:.2} mm from the writing's",
                                attempt.attempt
                            ));
                        }
                        true
                    }
                    _ => false,
                }
            }
            _ => false,
        };
        if !right {
            tally.questions_wrong.push(format!(
                "attempt {} question {question}: expected {expect:?}, read {answer:?} / {doubt:?}",
                attempt.attempt
            ));
        }
    }
}

/// The centre of the crop's ink, in its pixels.
fn ink_centre(png: &[u8]) -> (f32, f32) {
    let crop = image::load_from_memory(png).unwrap().into_luma8();
    let (mut x, mut y, mut n) = (0.0, 0.0, 0.0);
    for (px, py, pixel) in crop.enumerate_pixels() {
        if pixel.0[0] < 140 {
            x += px as f32;
            y += py as f32;
            n += 1.0;
        }
    }
    (x / n, y / n)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_code_clear_mark_and_blank_is_read_and_nothing_ambiguous_is_guessed() {
    let app = TestApp::spawn_with_demo(Backend::Sqlite).await;
    let delivery = deliver_paper(&app, 4).await;
    assert_eq!(delivery.layout.len(), 2, "two pages a sheet");
    let keep = std::env::var_os("SCOREDESK_SHEETS_CORPUS").map(PathBuf::from);
    if let Some(dir) = &keep {
        std::fs::create_dir_all(dir).unwrap();
        // The sheet's questions, for the benchmark to read the scans against.
        let questions: Vec<serde_json::Value> = delivery
            .questions
            .iter()
            .map(|q| match q.shape.clone() {
                Shape::Choices { count, most } => {
                    serde_json::json!({"order": q.order, "choices": count, "single": most == 1})
                }
                Shape::Essay { max_score } => {
                    serde_json::json!({"order": q.order, "essay": max_score})
                }
                Shape::Grid { parts, options } => {
                    serde_json::json!({"order": q.order, "parts": parts, "options": options})
                }
                Shape::Written => serde_json::json!({"order": q.order, "written": true}),
                Shape::Number { positions } => {
                    serde_json::json!({"order": q.order, "number": positions})
                }
                Shape::Blanks { options } => {
                    serde_json::json!({"order": q.order, "blanks": options})
                }
                Shape::Picture {
                    width,
                    height,
                    most,
                } => serde_json::json!({"order": q.order, "picture": [width, height, most]}),
            })
            .collect();
        std::fs::write(
            dir.join("questions.json"),
            serde_json::to_vec(&questions).unwrap(),
        )
        .unwrap();
    }
    let mut tallies = Vec::new();
    for (batch, _) in &delivery.batches {
        let dir = tempfile::tempdir().unwrap();
        let pages = printed(&app, *batch, dir.path()).await;
        // Each attempt's pages, in order.
        let mut attempts: BTreeMap<i32, Vec<(SheetCode, &image::GrayImage)>> = BTreeMap::new();
        for (code, page) in &pages {
            attempts
                .entry(code.attempt)
                .or_default()
                .push((*code, page));
        }
        let attempts: Vec<_> = attempts.into_values().collect();
        // Two workers, one per core; each attempt scanned at 300 and 150 dpi, and
        // every other one a second time at 300.
        let (layout, questions, keep) = (&delivery.layout, &delivery.questions, keep.as_ref());
        let results = std::thread::scope(|scope| {
            let workers: Vec<_> = attempts
                .chunks(attempts.len().div_ceil(2).max(1))
                .map(|chunk| {
                    scope.spawn(move || {
                        let mut tally = Tally::default();
                        for pages in chunk {
                            let attempt = pages[0].0.attempt as u64;
                            // A seed of its own for every scan of every attempt of every batch.
                            let seed = (*batch as u64 * 100_000 + attempt) * 10;
                            check_attempt(layout, questions, pages, seed, 300.0, keep, &mut tally);
                            check_attempt(
                                layout,
                                questions,
                                pages,
                                seed + 1,
                                150.0,
                                keep,
                                &mut tally,
                            );
                            if attempt.is_multiple_of(2) {
                                check_attempt(
                                    layout,
                                    questions,
                                    pages,
                                    seed + 2,
                                    300.0,
                                    keep,
                                    &mut tally,
                                );
                            }
                        }
                        tally
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().unwrap())
                .collect::<Vec<_>>()
        });
        tallies.extend(results);
    }
    let mut all = Tally::default();
    for tally in tallies {
        all.pages += tally.pages;
        all.codes_read += tally.codes_read;
        all.upside_down += tally.upside_down;
        all.bubbles += tally.bubbles;
        all.clear += tally.clear;
        all.clear_wrong.extend(tally.clear_wrong);
        all.ambiguous += tally.ambiguous;
        all.ambiguous_decided.extend(tally.ambiguous_decided);
        all.questions_wrong.extend(tally.questions_wrong);
        all.essays += tally.essays;
        all.essays_wrong.extend(tally.essays_wrong);
        all.short_essays += tally.short_essays;
        all.short_essays_doubted += tally.short_essays_doubted;
        all.shaded_pages += tally.shaded_pages;
        for (style, (clear, asked)) in tally.by_style {
            let entry = all.by_style.entry(style).or_default();
            entry.0 += clear;
            entry.1 += asked;
        }
        for (kind, count) in tally.clear_unsure {
            *all.clear_unsure.entry(kind).or_default() += count;
        }
        for (kind, (least, most)) in tally.darkness {
            let entry = all.darkness.entry(kind).or_insert((f32::MAX, f32::MIN));
            entry.0 = entry.0.min(least);
            entry.1 = entry.1.max(most);
        }
    }
    let mut summary = format!(
        "sheet corpus: {} pages ({} upside down), {} codes read; {} bubbles: {} clear with {} wrong, {} ambiguous with {} decided; {} essays with {} misplaced; {} questions wrong\ndarkness by pencil:",
        all.pages,
        all.upside_down,
        all.codes_read,
        all.bubbles,
        all.clear,
        all.clear_wrong.len(),
        all.ambiguous,
        all.ambiguous_decided.len(),
        all.essays,
        all.essays_wrong.len(),
        all.questions_wrong.len()
    );
    for (kind, (least, most)) in &all.darkness {
        write!(summary, " {kind} {least:.3}–{most:.3};").unwrap();
    }
    write!(
        summary,
        "\n{} pages unevenly lit (a shade of 0.34 to 0.5); {} one- or two-letter essays, {} of them sent to a person, the rest taken as written\nclear bubbles left to a person:",
        all.shaded_pages, all.short_essays, all.short_essays_doubted
    )
    .unwrap();
    for (kind, count) in &all.clear_unsure {
        write!(summary, " {kind} {count};").unwrap();
    }
    summary.push_str("\nquestions with clear marks sent to a person, by marking style:");
    for (style, (clear, asked)) in &all.by_style {
        let share = 100.0 * *asked as f64 / (*clear).max(1) as f64;
        write!(summary, " {style:?} {asked} of {clear} ({share:.2} %);").unwrap();
    }
    println!("{summary}");
    // The targets (issue 36): fills and crosses under 1 %, ticks (and circles)
    // under 5 %.
    for (style, (clear, asked)) in &all.by_style {
        let most = match style {
            Style::Fill | Style::Cross => 0.01,
            Style::Tick | Style::Circle => 0.05,
        };
        assert!(*clear > 100, "{summary}");
        assert!(
            (*asked as f64) < most * *clear as f64,
            "{style:?}: {summary}"
        );
    }
    assert!(all.shaded_pages > 0 && all.short_essays > 0, "{summary}");
    assert!(all.pages >= 200, "{summary}");
    assert!(all.upside_down > 0, "{summary}");
    assert!(
        all.clear_wrong.is_empty(),
        "{summary}\n{}",
        all.clear_wrong.join("\n")
    );
    assert!(
        all.ambiguous_decided.is_empty(),
        "{summary}\n{}",
        all.ambiguous_decided.join("\n")
    );
    assert!(
        all.questions_wrong.is_empty(),
        "{summary}\n{}",
        all.questions_wrong.join("\n")
    );
    assert!(
        all.essays_wrong.is_empty(),
        "{summary}\n{}",
        all.essays_wrong.join("\n")
    );
}
