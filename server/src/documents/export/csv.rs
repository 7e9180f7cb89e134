//! The results as CSV: UTF-8 with a byte-order mark (so that Excel reads accents
//! right), a header row, one row per Result, RFC 4180 quoting.

use crate::documents::export::{iso_time, neutralised};
use crate::model::report::table::{headers, row, Cell};
use crate::model::report::AssessmentReport;

/// Writes `report`'s results table to `out`.
pub fn write_results(report: &AssessmentReport, out: impl std::io::Write) -> std::io::Result<()> {
    let mut out = out;
    out.write_all("\u{feff}".as_bytes())?;
    let mut writer = ::csv::Writer::from_writer(out);
    writer.write_record(headers(report).iter().map(text_of))?;
    for result in &report.results {
        writer.write_record(row(result).iter().map(text_of))?;
    }
    writer.flush()?;
    Ok(())
}

fn text_of(cell: &Cell) -> String {
    match cell {
        Cell::Text(text) => neutralised(text).into_owned(),
        Cell::Int(value) => value.to_string(),
        Cell::Number(value) => value.to_string(),
        Cell::Bool(value) => value.to_string(),
        Cell::Time(millis) => iso_time(*millis),
        Cell::Empty => String::new(),
    }
}
