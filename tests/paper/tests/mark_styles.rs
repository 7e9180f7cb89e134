//! Every way a participant marks a bubble (issue 36), on pages drawn from the
//! layout with their labels, marked by this crate's pencil and pen, scanned
//! with a scanner's damage (uneven light included) at 300 and 150 dpi: fills,
//! ticks, crosses and circles round the letter are read as marked and named;
//! rubbed-out fills and crosses as blank; light fills and bad erasures left to
//! a person; a line passing through bubbles is never a mark. No clear bubble
//! is ever read as the other verdict, and the share left to a person stays
//! under each style's target. (The Chromium-printed corpus,
//! tests/tests/api/sheet_corpus.rs, checks the same on the real print.)

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use scoredesk_paper::strokes::{draw_line, Line};
use scoredesk_paper::{mark_bubble, rng, scan, Damage, Pencil, Rng};
use scoredesk_sheets::drawn::print_page;
use scoredesk_sheets::layout::{lay_out, Shape, SheetQuestion};
use scoredesk_sheets::{recognise, MarkKind, SheetCode, Verdict};

const PAGES: u64 = 40;
const STYLES: [Pencil; 9] = [
    Pencil::Full,
    Pencil::Partial,
    Pencil::Tick,
    Pencil::Cross,
    Pencil::Circle,
    Pencil::CrossErased,
    Pencil::Erased,
    Pencil::Light,
    Pencil::Smudged,
];

/// Per kind of pencil: how many bubbles, how many left to a person.
type Tally = BTreeMap<String, (usize, usize)>;

#[test]
fn every_way_of_marking_is_read_or_left_to_a_person_and_never_read_wrong() {
    // 24 questions of 3 to 6 choices: labels A to C on every question, D to F
    // on fewer (some pages hold too few of F to learn its printing).
    let questions: Vec<SheetQuestion> = (1..=24)
        .map(|order| SheetQuestion {
            order,
            shape: Shape::Choices {
                count: 3 + (order as usize % 4),
                most: 1,
            },
        })
        .collect();
    let layout = lay_out(&questions);
    let page = &layout[0];
    let code = SheetCode {
        edition: scoredesk_sheets::EDITION,
        area: 1,
        batch: 2,
        attempt: 3,
        page: 1,
        pages: layout.len() as u16,
    };
    let mut tally = Tally::new();
    let mut wrong = Vec::new();
    for seed in 0..PAGES {
        let mut random = rng(seed);
        let mut image = print_page(page, &code.encode(), 300.0, &[]);
        let mut marked = BTreeMap::new();
        let on_page = page.numbers.len() as i32;
        for question in 1..on_page {
            let count = 3 + (question % 4);
            let choice = random.random_range(1..=count);
            let style = STYLES[random.random_range(0..STYLES.len())];
            let bubble = page
                .bubbles
                .iter()
                .find(|b| b.question == question && b.choice == choice)
                .unwrap();
            mark_bubble(&mut image, bubble.center, style, &mut random);
            marked.insert((question, choice), style);
        }
        // The last question on the page crossed out with one long line: a line
        // through its bubbles, which is no mark on any of them.
        let through: Vec<_> = page
            .bubbles
            .iter()
            .filter(|b| b.question == on_page)
            .collect();
        let (first, last) = (through[0].center, through[through.len() - 1].center);
        let line = Line::random(&mut random);
        let slope: f32 = random.random_range(-0.08..0.08);
        draw_line(
            &mut image,
            (first.x - 6.0, first.y - 6.0 * slope),
            (last.x + 6.0, last.y + 6.0 * slope),
            line,
            &mut random,
        );
        let dpi = if seed % 2 == 0 { 300.0 } else { 150.0 };
        let damage = Damage::random(&mut random, dpi);
        let bytes = scan(&image, damage, seed);
        let reading = recognise::open(&bytes).unwrap().read(page).unwrap();
        for bubble in &reading.bubbles {
            let pencil = marked.get(&(bubble.question, bubble.choice)).copied();
            let name = match pencil {
                Some(pencil) => format!("{pencil:?}"),
                None if bubble.question == on_page => "line through".to_owned(),
                None => "blank".to_owned(),
            };
            let entry = tally.entry(name.clone()).or_default();
            entry.0 += 1;
            entry.1 += usize::from(bubble.verdict == Verdict::Unsure);
            let clear = match pencil {
                Some(pencil) => pencil.clear(),
                None => Some(false),
            };
            let right = match (clear, bubble.verdict) {
                // A person looks: never wrong, counted against each target.
                (_, Verdict::Unsure) => true,
                (Some(true), Verdict::Marked) => kind_fits(pencil, bubble.kind),
                (Some(false), Verdict::Blank) => true,
                _ => false,
            };
            if !right {
                wrong.push(format!("page {seed}: {name} read {bubble:?} ({damage:?})"));
            }
        }
    }
    let summary: Vec<String> = tally
        .iter()
        .map(|(name, (count, unsure))| format!("{name} {unsure} of {count} unsure"))
        .collect();
    let summary = summary.join("; ");
    println!("mark styles: {summary}");
    assert!(wrong.is_empty(), "{summary}\n{}", wrong.join("\n"));
    // Blanks beside marks stay blank; the ambiguous fills always go to a person.
    let share = |name: &str| {
        let (count, unsure) = tally[name];
        assert!(count > 50, "{name}: {summary}");
        unsure as f64 / count as f64
    };
    assert!(share("blank") < 0.002, "{summary}");
    for (name, most) in [
        ("Full", 0.0),
        ("Partial", 0.0),
        ("Circle", 0.02),
        ("Cross", 0.03),
        ("Tick", 0.06),
        ("Erased", 0.03),
        ("CrossErased", 0.03),
    ] {
        assert!(share(name) <= most, "{name}: {summary}");
    }
    for name in ["Light", "Smudged"] {
        assert!(
            (share(name) - 1.0).abs() < f64::EPSILON,
            "{name}: {summary}"
        );
    }
}

/// A mark is named for what it is: a fill a fill, a circle a circle, and a
/// tick or a cross one of the two (a tick with a long first stroke looks like
/// a cross's arm).
fn kind_fits(pencil: Option<Pencil>, kind: MarkKind) -> bool {
    match pencil {
        Some(Pencil::Full | Pencil::Partial) => kind == MarkKind::Fill,
        Some(Pencil::Circle) => kind == MarkKind::Circle,
        Some(Pencil::Tick | Pencil::Cross) => matches!(kind, MarkKind::Tick | MarkKind::Cross),
        _ => false,
    }
}
