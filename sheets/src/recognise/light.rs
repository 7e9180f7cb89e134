//! Evening out a scan's light before anything is read from it. A lid left
//! open, a page not flat on the glass or a sheet-feeder's lamp leaves one end
//! of the scan darker than the other; one threshold for the whole page then
//! takes the dark end's paper for ink (its registration marks are lost in it)
//! and every bubble there for marked. The paper's own grey is measured across
//! the page (the brightest tenth of each 5 mm cell, the brightest such cell
//! within 12.5 mm, smoothed), and each point is divided by it: what the page
//! would look like under even light. An evenly lit scan is left as it is.

use image::GrayImage;

use crate::layout::PAGE_WIDTH;

/// The cell the paper's grey is measured in, in millimetres of the page.
const CELL_MM: f32 = 5.0;
/// The brightest cell within this many cells each way is the paper: a cell
/// inside a registration mark (8 mm) or the code's dark modules holds none.
const NEAR: usize = 2;
/// The paper's grey may vary this much (brightest over darkest) and the scan
/// is read as it is: a lid's grey around the page, a cream paper's grain.
const EVEN_ENOUGH: f32 = 1.12;
/// The factors are worked out again every this many rows.
const FACTOR_ROWS: usize = 4;

/// The paper's grey in each cell: `columns` × `rows`, `cell` pixels square.
struct PaperGrey {
    cell: u32,
    columns: usize,
    rows: usize,
    grey: Vec<f32>,
}

/// Divides the scan by its paper's grey where the light is uneven.
pub(crate) fn even_out(image: &mut GrayImage) {
    let paper = paper_grey(image);
    let brightest = paper.grey.iter().copied().fold(1.0f32, f32::max);
    let darkest = paper.grey.iter().copied().fold(f32::MAX, f32::min);
    if brightest / darkest.max(1.0) <= EVEN_ENOUGH {
        return;
    }
    let columns: Vec<(usize, usize, f32)> = (0..image.width())
        .map(|x| paper.between(x, paper.columns))
        .collect();
    // Each point's factor, worked out afresh every few rows: the light changes
    // over millimetres, not points.
    let mut factors = vec![1f32; columns.len()];
    for (y, row) in image.rows_mut().enumerate() {
        if y % FACTOR_ROWS == 0 {
            let (r0, r1, fy) = paper.between(y as u32, paper.rows);
            let at = |r: usize, c: usize| paper.grey[r * paper.columns + c];
            for (factor, (c0, c1, fx)) in factors.iter_mut().zip(&columns) {
                let top = at(r0, *c0) + (at(r0, *c1) - at(r0, *c0)) * fx;
                let bottom = at(r1, *c0) + (at(r1, *c1) - at(r1, *c0)) * fx;
                *factor = brightest / (top + (bottom - top) * fy).max(1.0);
            }
        }
        for (pixel, factor) in row.zip(&factors) {
            let evened = f32::from(pixel.0[0]) * factor + 0.5;
            pixel.0[0] = evened.min(255.0) as u8;
        }
    }
}

impl PaperGrey {
    /// The two cells (along one axis) whose centres `at` lies between, and how
    /// far it lies from the first towards the second.
    fn between(&self, at: u32, count: usize) -> (usize, usize, f32) {
        let position = (at as f32 + 0.5) / self.cell as f32 - 0.5;
        let first = position.floor().clamp(0.0, (count - 1) as f32) as usize;
        let second = (first + 1).min(count - 1);
        let fraction = (position - first as f32).clamp(0.0, 1.0);
        (first, second, fraction)
    }
}

fn paper_grey(image: &GrayImage) -> PaperGrey {
    let (width, height) = image.dimensions();
    let cell = ((width as f32 / PAGE_WIDTH * CELL_MM).round() as u32).max(8);
    let (columns, rows) = (
        width.div_ceil(cell) as usize,
        height.div_ceil(cell) as usize,
    );
    // The brightest tenth of each cell, a row of cells at a time, from every
    // other point each way: a cell's histogram needs no more, and this runs
    // over every page.
    let mut tenth = vec![0f32; columns * rows];
    let mut histograms = vec![[0u32; 256]; columns];
    let raw = image.as_raw();
    for row in 0..rows {
        histograms.iter_mut().for_each(|h| *h = [0; 256]);
        let y_end = ((row as u32 + 1) * cell).min(height);
        for y in (row as u32 * cell..y_end).step_by(2) {
            let line = &raw[(y * width) as usize..((y + 1) * width) as usize];
            for (x, grey) in line.iter().enumerate().step_by(2) {
                histograms[x / cell as usize][usize::from(*grey)] += 1;
            }
        }
        for (column, histogram) in histograms.iter().enumerate() {
            tenth[row * columns + column] = percentile(histogram, 0.9);
        }
    }
    // The brightest cell near each, then the mean of its neighbours: no seams.
    let near = |grid: &[f32], row: usize, column: usize, reach: usize, pick: fn(&[f32]) -> f32| {
        let mut values = Vec::with_capacity((2 * reach + 1).pow(2));
        for r in row.saturating_sub(reach)..=(row + reach).min(rows - 1) {
            for c in column.saturating_sub(reach)..=(column + reach).min(columns - 1) {
                values.push(grid[r * columns + c]);
            }
        }
        pick(&values)
    };
    let brightest: Vec<f32> = (0..rows * columns)
        .map(|i| {
            near(&tenth, i / columns, i % columns, NEAR, |v| {
                v.iter().copied().fold(0.0, f32::max)
            })
        })
        .collect();
    let grey = (0..rows * columns)
        .map(|i| {
            near(&brightest, i / columns, i % columns, 1, |v| {
                v.iter().sum::<f32>() / v.len() as f32
            })
        })
        .collect();
    PaperGrey {
        cell,
        columns,
        rows,
        grey,
    }
}

/// The grey below which `share` of the histogram's points lie.
fn percentile(histogram: &[u32; 256], share: f32) -> f32 {
    let total: u32 = histogram.iter().sum();
    let wanted = (total as f32 * share) as u32;
    let mut seen = 0;
    for (grey, count) in histogram.iter().enumerate() {
        seen += count;
        if seen > wanted {
            return grey as f32;
        }
    }
    255.0
}
