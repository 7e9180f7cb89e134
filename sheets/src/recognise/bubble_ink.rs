//! What a bubble holds, measured over the whole of it and around it rather than
//! only by its disc's darkness: the patch of the page around each bubble,
//! straightened; the page's own printing of each label (the median of the
//! page's bubbles that carry it: mostly blank, so what remains is the printed
//! ring and letter as this scan renders them) taken away; and then where the
//! participant's ink lies (in the disc, around the ring, in which directions)
//! and how it is shaped (one straight line, or strokes that meet).

use std::collections::BTreeMap;

use image::GrayImage;

use crate::layout::{Bubble, Rect, BUBBLE_RADIUS};

use super::geometry::PageGeometry;
use super::levels::Levels;

/// How far around a bubble's centre is looked at (millimetres): nothing
/// printed comes nearer than 4.5 mm (the next row's ring is 6.4 mm away; a box
/// under a number's last row 4.5 mm).
pub(super) const REACH: f32 = 4.4;
/// The disc whose mean darkness says "filled": inside the ring (0.3 mm thick),
/// with room for blur and a few tenths of a millimetre of registration.
pub(super) const DISC: f32 = BUBBLE_RADIUS - 0.8;
/// Strokes are looked for inside this radius and outside `AROUND`; the band
/// between holds the printed ring.
const INSIDE: f32 = BUBBLE_RADIUS - 0.7;
const AROUND: f32 = BUBBLE_RADIUS + 0.4;
/// The patch's resolution: the scan's, between these (millimetres to a pixel).
const FINEST: f32 = 8.0;
const COARSEST: f32 = 6.0;
/// A label's own printing is learnt from this many of the page's bubbles.
const TEMPLATE_FROM: usize = 5;
/// Directions around the ring, for a circle drawn round the letter.
pub(super) const SECTORS: usize = 16;
/// A direction holds ink from this much of it (square millimetres).
const SECTOR_INK_MM2: f32 = 0.12;
/// A point is faint ink from this much darker than the page's printing.
const FAINT: f32 = 0.2;
/// Half the side of the square a label is printed in (6.5 pt: its capitals
/// 1.6 mm high and at most as wide), with room for registration.
const LETTER_BOX: f32 = 1.1;
/// A label's printing is widened by a point each way where it is this dark.
const PRINTED: f32 = 0.2;
/// The looked-at circle's edge: ink this near [`REACH`] runs out of it.
const RIM: f32 = 0.3;

/// The darkness (0 paper, 1 the marks' ink) of the square around one bubble.
pub(super) struct Patch {
    side: usize,
    px_per_mm: f32,
    darkness: Vec<f32>,
}

/// What one bubble holds.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Ink {
    /// The disc's mean darkness, as printed and marked (the letter included).
    pub disc: f32,
    /// The median of the disc less the page's printing: how dark the disc is
    /// between any strokes (paper for a tick, grey for a light fill; a cross
    /// blurred at 150 dpi lifts it to about 0.2).
    pub disc_rest: f32,
    /// The mean, over the inside, of what is darker than the page's printing:
    /// a thin or blurred stroke adds to it though no point of it is dark.
    pub mass: f32,
    /// The share of the inside, and of the ring around the bubble, that is the
    /// participant's ink.
    pub inside: f32,
    pub around: f32,
    /// How many of [`SECTORS`] directions around the bubble hold ink.
    pub sectors: usize,
    /// The share of inside and around that is faint ink or darker.
    pub faint: f32,
    /// The ink's narrowness: the smaller over the larger spread of its points
    /// (a straight line about 0.02, a tick 0.1 to 0.4, a cross or a ring 1).
    pub roundness: f32,
    /// The ink's share in each quarter around the centre (a cross reaches all
    /// four, a tick two or three).
    pub quarters: [f32; 4],
    /// Whether the ink runs out of the looked-at circle on two sides (more than
    /// a third of a turn apart): a line passing through, not a mark made here.
    pub through: bool,
}

impl Patch {
    /// The square of side 2 × [`REACH`] around `bubble`, straightened.
    pub fn cut(scan: &GrayImage, geometry: &PageGeometry, levels: Levels, bubble: &Bubble) -> Self {
        let px_per_mm = geometry.px_per_mm.clamp(COARSEST, FINEST);
        let square = Rect {
            x: bubble.center.x - REACH,
            y: bubble.center.y - REACH,
            width: 2.0 * REACH,
            height: 2.0 * REACH,
        };
        let crop = geometry.crop(scan, square, px_per_mm);
        Patch {
            side: crop.width() as usize,
            px_per_mm,
            darkness: crop
                .pixels()
                .map(|grey| levels.darkness(grey.0[0]))
                .collect(),
        }
    }

    /// Each point's distance from the centre in millimetres, with its index.
    fn points(&self) -> impl Iterator<Item = (usize, f32, f32, f32)> + '_ {
        let centre = self.side as f32 / 2.0;
        (0..self.darkness.len()).map(move |index| {
            let dx = ((index % self.side) as f32 + 0.5 - centre) / self.px_per_mm;
            let dy = ((index / self.side) as f32 + 0.5 - centre) / self.px_per_mm;
            // Not `hypot`: no overflow to guard against, and it runs for every
            // point of every bubble.
            (index, dx, dy, (dx * dx + dy * dy).sqrt())
        })
    }

    /// How dark this scan prints a bubble's ring: the 95th percentile of the
    /// band that holds it. A pencil stroke is measured against it.
    pub fn ring_darkness(&self) -> f32 {
        let mut band: Vec<f32> = self
            .points()
            .filter(|(_, _, _, r)| (BUBBLE_RADIUS - 0.45..=BUBBLE_RADIUS + 0.15).contains(r))
            .map(|(index, ..)| self.darkness[index])
            .collect();
        percentile(&mut band, 0.95)
    }
}

/// The page's printing of each label: for each label held by enough of the
/// page's bubbles, the median of their patches, darkened by a point each way
/// (a patch may sit a pixel off another). A label the page holds too few of, or
/// whose median holds much ink (most of them marked alike), is not learnt: its
/// bubbles are measured against the page's printing of all labels.
pub(super) fn printing(patches: &[(char, Patch)]) -> BTreeMap<Option<char>, Vec<f32>> {
    let mut by_label: BTreeMap<Option<char>, Vec<&Patch>> = BTreeMap::new();
    for (label, patch) in patches {
        by_label.entry(Some(*label)).or_default().push(patch);
        by_label.entry(None).or_default().push(patch);
    }
    by_label
        .into_iter()
        .filter(|(_, patches)| patches.len() >= TEMPLATE_FROM)
        .filter(|(_, patches)| patches.iter().all(|p| p.side == patches[0].side))
        .map(|(label, patches)| (label, median(&patches)))
        .collect()
}

fn median(patches: &[&Patch]) -> Vec<f32> {
    let side = patches[0].side;
    let mut values = Vec::with_capacity(patches.len());
    let middle: Vec<f32> = (0..side * side)
        .map(|index| {
            values.clear();
            values.extend(patches.iter().map(|p| p.darkness[index]));
            percentile(&mut values, 0.5)
        })
        .collect();
    (0..side * side)
        .map(|index| {
            let (x, y) = ((index % side) as i64, (index / side) as i64);
            let mut darkest = 0f32;
            for (dx, dy) in [
                (-1, -1),
                (0, -1),
                (1, -1),
                (-1, 0),
                (0, 0),
                (1, 0),
                (-1, 1),
                (0, 1),
                (1, 1),
            ] {
                let (u, v) = (x + dx, y + dy);
                if (0..side as i64).contains(&u) && (0..side as i64).contains(&v) {
                    darkest = darkest.max(middle[(v * side as i64 + u) as usize]);
                }
            }
            // Only the printing is widened: widening the paper's noise too
            // would make every patch read lighter than its paper.
            if darkest >= PRINTED {
                darkest
            } else {
                middle[index]
            }
        })
        .collect()
}

/// What `patch` holds beyond `printed` (the page's printing of its label, or
/// of all labels, or none learnt), counting a point as ink from `stroke`
/// darker. Unless its own label's printing was learnt (`label_learnt`), the
/// box the letter is printed in counts as printed: never is a letter of a
/// label the page holds few of taken for a stroke.
pub(super) fn measure(
    patch: &Patch,
    printed: Option<&[f32]>,
    label_learnt: bool,
    stroke: f32,
) -> Ink {
    let mut ink = Ink::default();
    let (mut disc_sum, mut disc_count) = (0.0, 0usize);
    let mut rest = Vec::new();
    let (mut inside, mut inside_count, mut around, mut around_count) = (0usize, 0usize, 0, 0usize);
    let mut faint = 0usize;
    let mut mass = 0f32;
    let mut sector_ink = [0usize; SECTORS];
    let mut ink_points: Vec<(f32, f32)> = Vec::new();
    let beyond = |index: usize, dx: f32, dy: f32| {
        let in_letter_box = dx.abs() < LETTER_BOX && dy.abs() < LETTER_BOX;
        let printed = if !label_learnt && in_letter_box {
            1.0
        } else {
            printed.map_or(0.0, |printed| printed[index])
        };
        patch.darkness[index] - printed
    };
    for (index, dx, dy, r) in patch.points() {
        if r <= DISC {
            disc_sum += patch.darkness[index];
            disc_count += 1;
            rest.push(beyond(index, dx, dy));
        }
    }
    ink.disc = disc_sum / disc_count.max(1) as f32;
    ink.disc_rest = percentile(&mut rest, 0.5);
    // A stroke stands out from the disc around it: on a grey disc (a light fill,
    // a smudge) only what is that much darker than the grey.
    let ground = ink.disc_rest.max(0.0);
    let mut rim: Vec<f32> = Vec::new();
    for (index, dx, dy, r) in patch.points() {
        let beyond = beyond(index, dx, dy);
        let counted = r <= INSIDE || (AROUND..=REACH).contains(&r);
        if !counted {
            continue;
        }
        if r <= INSIDE {
            inside_count += 1;
            mass += beyond.clamp(0.0, 1.0);
        } else {
            around_count += 1;
        }
        faint += usize::from(beyond >= FAINT);
        if beyond - ground < stroke {
            continue;
        }
        ink_points.push((dx, dy));
        if r >= REACH - RIM {
            rim.push(dy.atan2(dx));
        }
        if r <= INSIDE {
            inside += 1;
        } else {
            around += 1;
            let angle = dy.atan2(dx).rem_euclid(std::f32::consts::TAU);
            let sector = ((angle / std::f32::consts::TAU) * SECTORS as f32) as usize;
            sector_ink[sector.min(SECTORS - 1)] += 1;
        }
    }
    let share = |count: usize, of: usize| {
        if of == 0 {
            0.0
        } else {
            count as f32 / of as f32
        }
    };
    ink.mass = mass / inside_count.max(1) as f32;
    ink.inside = share(inside, inside_count);
    ink.around = share(around, around_count);
    ink.faint = share(faint, inside_count + around_count);
    let sector_least = (SECTOR_INK_MM2 * patch.px_per_mm * patch.px_per_mm).max(2.0) as usize;
    ink.sectors = sector_ink.iter().filter(|n| **n >= sector_least).count();
    (ink.roundness, ink.quarters) = shape(&ink_points);
    ink.through = rim.iter().any(|a| {
        rim.iter().any(|b| {
            let apart = (a - b).abs();
            apart.min(std::f32::consts::TAU - apart) > std::f32::consts::TAU / 3.0
        })
    });
    ink
}

/// The ink's roundness (the smaller over the larger eigenvalue of its points'
/// spread) and its share in each quarter (right-down, left-down, left-up,
/// right-up).
fn shape(points: &[(f32, f32)]) -> (f32, [f32; 4]) {
    if points.len() < 3 {
        return (0.0, [0.0; 4]);
    }
    let n = points.len() as f32;
    let (mx, my) = points
        .iter()
        .fold((0.0, 0.0), |(x, y), p| (x + p.0 / n, y + p.1 / n));
    let (mut xx, mut yy, mut xy) = (0.0, 0.0, 0.0);
    let mut quarters = [0.0; 4];
    for (x, y) in points {
        xx += (x - mx) * (x - mx) / n;
        yy += (y - my) * (y - my) / n;
        xy += (x - mx) * (y - my) / n;
        let quarter = match (*x >= 0.0, *y >= 0.0) {
            (true, true) => 0,
            (false, true) => 1,
            (false, false) => 2,
            (true, false) => 3,
        };
        quarters[quarter] += 1.0 / n;
    }
    let half_trace = (xx + yy) / 2.0;
    let gap = (((xx - yy) / 2.0).powi(2) + xy * xy).sqrt();
    let (large, small) = (half_trace + gap, (half_trace - gap).max(0.0));
    let roundness = if large > 0.0 { small / large } else { 0.0 };
    (roundness, quarters)
}

/// The `share`th value of `values` (0 when there are none).
fn percentile(values: &mut [f32], share: f32) -> f32 {
    if values.is_empty() {
        return 0.0;
    }
    let at = ((values.len() - 1) as f32 * share).round() as usize;
    *values.select_nth_unstable_by(at, f32::total_cmp).1
}
