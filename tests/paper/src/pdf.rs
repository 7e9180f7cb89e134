//! A black-and-white scanner's PDF: each page thresholded to one bit and
//! embedded as a CCITT Group 4 image (libtiff's coder) or the same
//! coding inside a JBIG2 stream (an immediate generic region, MMR), the two
//! ways such scanners compress a page. The PDF is written here, object by
//! object, so that each image is exactly what a scanner embeds.

use std::fmt::Write as _;

use std::process::Command;

use image::GrayImage;

/// How a page's one-bit image is embedded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bilevel {
    Ccitt,
    Jbig2,
}

/// What a black-and-white scanner takes for ink: darker than this share of
/// the paper's grey around it (a scanner's threshold follows its light).
const THRESHOLD: f32 = 0.64;
/// The square the paper's grey is measured in, in pixels.
const BLOCK: u32 = 64;

/// `pages` (scans at `dpi`) as one black-and-white PDF, a page each.
pub fn bilevel_pdf(pages: &[GrayImage], dpi: f32, embedding: Bilevel) -> Vec<u8> {
    let mut objects: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        Vec::new(), // the page tree, once the pages are numbered
    ];
    let mut kids = Vec::new();
    for page in pages {
        let (width, height) = page.dimensions();
        let coded = group4(page);
        let (filter, stream) = match embedding {
            Bilevel::Ccitt => (
                format!("/Filter /CCITTFaxDecode /DecodeParms << /K -1 /Columns {width} /Rows {height} >>"),
                coded,
            ),
            Bilevel::Jbig2 => ("/Filter /JBIG2Decode".to_owned(), jbig2(width, height, &coded)),
        };
        let image = objects.len() + 1;
        objects.push(stream_object(
            &format!("/Type /XObject /Subtype /Image /Width {width} /Height {height} /BitsPerComponent 1 /ColorSpace /DeviceGray {filter}"),
            &stream,
        ));
        let (w, h) = (width as f32 * 72.0 / dpi, height as f32 * 72.0 / dpi);
        let content = objects.len() + 1;
        objects.push(stream_object(
            "",
            format!("q {w} 0 0 {h} 0 0 cm /Im0 Do Q").as_bytes(),
        ));
        kids.push(objects.len() + 1);
        objects.push(format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w} {h}] /Resources << /XObject << /Im0 {image} 0 R >> >> /Contents {content} 0 R >>"
        ).into_bytes());
    }
    let kids: String = kids.iter().fold(String::new(), |mut all, kid| {
        let _ = write!(all, "{kid} 0 R ");
        all
    });
    objects[1] = format!("<< /Type /Pages /Kids [{kids}] /Count {} >>", pages.len()).into_bytes();
    let mut pdf = b"%PDF-1.5\n".to_vec();
    let mut offsets = Vec::new();
    for (index, object) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend(format!("{} 0 obj\n", index + 1).as_bytes());
        pdf.extend(object);
        pdf.extend(b"\nendobj\n");
    }
    let xref = pdf.len();
    pdf.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
    for offset in offsets {
        pdf.extend(format!("{offset:010} 00000 n \n").as_bytes());
    }
    pdf.extend(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    pdf
}

fn stream_object(entries: &str, data: &[u8]) -> Vec<u8> {
    let mut object = format!("<< {entries} /Length {} >>\nstream\n", data.len()).into_bytes();
    object.extend(data);
    object.extend(b"\nendstream");
    object
}

/// The page thresholded and coded in CCITT Group 4 (T.6) by libtiff, as
/// Pillow drives it (Debian's python3-pil, which img2pdf brings): a coder
/// scanners' firmware shares. (The `fax` crate's coder wrote rows of the wrong
/// length on these pages, which poppler's JBIG2 reader turned into streaks.)
fn group4(page: &GrayImage) -> Vec<u8> {
    let paper = block_paper(page);
    let columns = page.width().div_ceil(BLOCK) as usize;
    let (width, height) = page.dimensions();
    // A PBM whose 1 bits are the paper: Pillow writes a one-bit image as
    // "black is zero", so that T.6's white runs are PBM's 1 bits.
    let mut pbm = format!("P4\n{width} {height}\n").into_bytes();
    for (y, row) in page.rows().enumerate() {
        let block_row = y / BLOCK as usize * columns;
        let mut byte = 0u8;
        for (x, grey) in row.enumerate() {
            let paper_here = paper[block_row + x / BLOCK as usize];
            if f32::from(grey.0[0]) >= THRESHOLD * paper_here {
                byte |= 0x80 >> (x % 8);
            }
            if x % 8 == 7 || x + 1 == width as usize {
                pbm.push(byte);
                byte = 0;
            }
        }
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (input, output) = (dir.path().join("page.pbm"), dir.path().join("page.g4"));
    std::fs::write(&input, pbm).expect("the page is written");
    let status = Command::new("/usr/bin/python3")
        .args(["-c", CODE_GROUP4])
        .arg(&input)
        .arg(&output)
        .status()
        .expect("Debian's python3 runs");
    assert!(status.success(), "Pillow codes the page in Group 4");
    std::fs::read(&output).expect("the coded page")
}

/// A PBM coded in Group 4 as one strip of a TIFF, and that strip written out.
const CODE_GROUP4: &str = "
import io, sys
from PIL import Image, TiffImagePlugin
# One strip for the whole page: each strip is coded on its own.
TiffImagePlugin.STRIP_SIZE = 1 << 30
page = Image.open(sys.argv[1])
tiff = io.BytesIO()
page.save(tiff, format='TIFF', compression='group4')
coded = Image.open(io.BytesIO(tiff.getvalue()))
assert len(coded.tag_v2[273]) == 1, 'one strip'
start, length = coded.tag_v2[273][0], coded.tag_v2[279][0]
open(sys.argv[2], 'wb').write(tiff.getvalue()[start:start + length])
";

/// The paper's grey in each block: its 90th percentile.
fn block_paper(page: &GrayImage) -> Vec<f32> {
    let (columns, rows) = (page.width().div_ceil(BLOCK), page.height().div_ceil(BLOCK));
    let mut paper = Vec::with_capacity((columns * rows) as usize);
    for row in 0..rows {
        for column in 0..columns {
            let mut greys: Vec<u8> = (row * BLOCK..((row + 1) * BLOCK).min(page.height()))
                .flat_map(|y| {
                    (column * BLOCK..((column + 1) * BLOCK).min(page.width()))
                        .map(move |x| page.get_pixel(x, y).0[0])
                })
                .collect();
            greys.sort_unstable();
            paper.push(f32::from(greys[greys.len() * 9 / 10]));
        }
    }
    // The lightest block around each: a block inside a registration mark (8 mm,
    // 94 pixels at 300 dpi) holds no paper.
    let (columns, rows) = (columns as usize, rows as usize);
    (0..rows * columns)
        .map(|index| {
            let (row, column) = (index / columns, index % columns);
            let mut lightest = 0f32;
            for r in row.saturating_sub(1)..=(row + 1).min(rows - 1) {
                for c in column.saturating_sub(1)..=(column + 1).min(columns - 1) {
                    lightest = lightest.max(paper[r * columns + c]);
                }
            }
            lightest
        })
        .collect()
}

/// Group 4 data as an embedded JBIG2 stream (PDF's JBIG2Decode): a page
/// information segment and an immediate lossless generic region coded with
/// MMR, which is T.6 itself.
fn jbig2(width: u32, height: u32, coded: &[u8]) -> Vec<u8> {
    let segment = |number: u32, kind: u8, data: &[u8]| {
        let mut bytes = number.to_be_bytes().to_vec();
        // Its type; no segment referred to; page 1; the data's length.
        bytes.extend([kind, 0, 1]);
        bytes.extend(
            u32::try_from(data.len())
                .expect("a page's data")
                .to_be_bytes(),
        );
        bytes.extend(data);
        bytes
    };
    let mut page_information = Vec::new();
    for value in [width, height, 0, 0] {
        page_information.extend(value.to_be_bytes());
    }
    page_information.extend([0, 0, 0]);
    let mut region = Vec::new();
    for value in [width, height, 0, 0] {
        region.extend(value.to_be_bytes());
    }
    // Combined by OR; MMR coding.
    region.extend([0, 1]);
    region.extend(coded);
    let mut stream = segment(0, 48, &page_information);
    stream.extend(segment(1, 39, &region));
    stream
}

/// `page` (a scan at `dpi`) scanned again by SANE's own front end, `scanimage`
/// (Debian's sane-utils), through its PNM file reader backend, to a PDF at
/// `out`: a PDF as a scanner driver writes it (its page a colour JPEG).
pub fn sane_pdf(page: &GrayImage, dpi: u32, out: &std::path::Path) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    // The PNM backend is off in Debian's configuration; a configuration of its
    // own turns it on.
    std::fs::write(dir.path().join("dll.conf"), "pnm\n").expect("SANE's configuration");
    // A PGM with its header on three lines, as the backend reads it.
    let input = dir.path().join("page.pgm");
    let mut pgm = format!("P5\n{} {}\n255\n", page.width(), page.height()).into_bytes();
    pgm.extend(page.as_raw());
    std::fs::write(&input, pgm).expect("the page as PGM");
    let output = Command::new("scanimage")
        .env("SANE_CONFIG_DIR", dir.path())
        .args(["--device-name", "pnm:0", "--format=pdf"])
        .arg(format!("--resolution={dpi}"))
        .arg("--filename")
        .arg(&input)
        .arg("--output-file")
        .arg(out)
        .output()
        .expect("scanimage runs (scripts/test installs sane-utils)");
    assert!(
        output.status.success(),
        "scanimage: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}
