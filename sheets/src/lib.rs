//! Personal answer sheets (docs/paper-sheets.md): one per attempt of a print
//! batch, with registration marks at the corners, a code that names the customer
//! area, batch, attempt and page, the choice bubbles of each question in the
//! snapshot's order, a framed area for each essay and a box for each short
//! answer. The layout is computed here, in millimetres on an A4 page, once for
//! both sides of the paper: the server prints from it, and recognition reads a
//! scanned page back through it; a scanner's PDF gives its page images through
//! poppler's `pdfimages` (`pdf`). No database and no HTTP here.

pub mod answers;
pub mod batch;
pub mod code;
#[cfg(feature = "drawn")]
pub mod drawn;
pub mod layout;
pub mod pdf;
mod reading;
pub mod recognise;
mod written;

pub use answers::{assemble, Answer, AttemptReading, Doubt, DoubtReason, Doubted, WrittenAnswer};
pub use batch::{read_batch_page, BatchPage};
pub use code::{CodeError, ForeignPage, SheetCode, EDITION};
pub use layout::{
    lay_out, printed_in, Bubble, EssayArea, Mark, PageLayout, Point, Rect, Shape, SheetQuestion,
};
pub use recognise::{BubbleReading, EssayCrop, MarkKind, PageReading, Scan, ScanError, Verdict};
