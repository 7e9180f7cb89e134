//! Documents of our own design that the service serves: the snapshot XML
//! (docs/snapshot-xml.md) and the printable page of a snapshot; the answer sheets of
//! a print batch, and an answer upload file written from a scanned sheet; the files
//! clients send (the answer upload file, its images, QTI content packages read by the
//! scoredesk-qti crate into content plans); and the sanitiser that question
//! markup passes through wherever it is shown. Written from domain
//! types with real libraries (quick-xml, minijinja, ammonia), never by pasting
//! strings; no HTTP and no SQL here.

pub mod answer_sheets;
pub mod class_list;
pub mod export;
pub mod images;
mod jpeg_scan;
mod jpeg_whole;
pub mod marked_script;
pub mod markup;
pub mod printable;
pub mod qti_content;
pub mod roster;
mod sheet_questions;
pub mod sheet_upload;
pub mod snapshot_xml;
pub mod upload_file;
