//! Print windows, shared by the desks: a snapshot's paper or answer key and a
//! print batch's answer sheets (delivery), a group's class list (people), a
//! result's marked script (results), each a
//! signed link of the server's in a window of its own with Print and Save as PDF.

mod pdf;
mod window;

pub use window::{
    open_answer_sheets, open_class_list, open_marked_script, open_printable, save_printable_pdf,
    PrintPages,
};
