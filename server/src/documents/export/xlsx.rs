//! The results as an Excel workbook (rust_xlsxwriter): the results table, a
//! summary of the test, the item statistics with a facility-against-discrimination
//! chart, the choice analysis, and the distribution of the final totals with its
//! chart. Native charts over the workbook's own cells, so that they follow any
//! edit. The results sheet is written in constant memory (rows go to a temporary
//! file as they are written), so 100,000 results do not hold 100,000 rows of cells.

use rust_xlsxwriter::{Chart, ChartType, ExcelDateTime, Format, Workbook, Worksheet, XlsxError};

use crate::documents::export::looks_like_formula;
use crate::model::report::analysis::{distribution, Analysis};
use crate::model::report::table::{headers, row, Cell};
use crate::model::report::AssessmentReport;

pub const RESULTS: &str = "Results";
pub const SUMMARY: &str = "Summary";
pub const ITEMS: &str = "Item statistics";
pub const CHOICES: &str = "Choices";
pub const DISTRIBUTION: &str = "Distribution";

struct Formats {
    bold: Format,
    text: Format,
    time: Format,
    share: Format,
}

/// The workbook's bytes.
pub fn workbook(report: &AssessmentReport, analysis: &Analysis) -> Result<Vec<u8>, XlsxError> {
    let formats = Formats {
        bold: Format::new().set_bold(),
        // A cell of text that begins like a formula stays text when edited.
        text: Format::new().set_quote_prefix(),
        time: Format::new().set_num_format("yyyy-mm-dd hh:mm:ss"),
        share: Format::new().set_num_format("0.000"),
    };
    let mut book = Workbook::new();
    results_sheet(book.add_worksheet_with_constant_memory()?, report, &formats)?;
    summary_sheet(book.add_worksheet(), report, analysis, &formats)?;
    items_sheet(book.add_worksheet(), report, analysis, &formats)?;
    choices_sheet(book.add_worksheet(), analysis, &formats)?;
    distribution_sheet(book.add_worksheet(), report, &formats)?;
    book.save_to_buffer()
}

fn write_text(
    sheet: &mut Worksheet,
    r: u32,
    c: u16,
    text: &str,
    f: &Formats,
) -> Result<(), XlsxError> {
    if looks_like_formula(text) {
        sheet.write_string_with_format(r, c, text, &f.text)?;
    } else {
        sheet.write_string(r, c, text)?;
    }
    Ok(())
}

fn write_cell(
    sheet: &mut Worksheet,
    r: u32,
    c: u16,
    cell: &Cell,
    f: &Formats,
) -> Result<(), XlsxError> {
    match cell {
        Cell::Text(text) => write_text(sheet, r, c, text, f)?,
        Cell::Int(value) => {
            sheet.write_number(r, c, *value as f64)?;
        }
        Cell::Number(value) => {
            sheet.write_number(r, c, *value)?;
        }
        Cell::Bool(value) => {
            sheet.write_boolean(r, c, *value)?;
        }
        Cell::Time(millis) => {
            // A time outside Excel's years (1900 to 9999) stays empty.
            if let Ok(at) = ExcelDateTime::from_timestamp(millis.div_euclid(1000)) {
                sheet.write_datetime_with_format(r, c, &at, &f.time)?;
            }
        }
        Cell::Empty => {}
    }
    Ok(())
}

fn results_sheet(
    sheet: &mut Worksheet,
    report: &AssessmentReport,
    f: &Formats,
) -> Result<(), XlsxError> {
    sheet.set_name(RESULTS)?;
    for (c, header) in headers(report).iter().enumerate() {
        if let Cell::Text(text) = header {
            if looks_like_formula(text) {
                sheet.write_string_with_format(0, c as u16, text, &f.text)?;
            } else {
                sheet.write_string_with_format(0, c as u16, text, &f.bold)?;
            }
        }
    }
    sheet.set_freeze_panes(1, 0)?;
    sheet.set_column_width(9, 20)?;
    for (r, result) in report.results.iter().enumerate() {
        for (c, cell) in row(result).iter().enumerate() {
            write_cell(sheet, r as u32 + 1, c as u16, cell, f)?;
        }
    }
    Ok(())
}

fn summary_sheet(
    sheet: &mut Worksheet,
    report: &AssessmentReport,
    analysis: &Analysis,
    f: &Formats,
) -> Result<(), XlsxError> {
    sheet.set_name(SUMMARY)?;
    sheet.set_column_width(0, 34)?;
    let test = &analysis.test;
    let alpha_name = if test.dichotomous {
        "KR-20"
    } else {
        "Cronbach's alpha"
    };
    let rows: [(&str, Cell); 9] = [
        ("Assessment", Cell::Text(report.name.clone())),
        ("AssessmentID", Cell::Int(report.assessment_id)),
        ("Results", Cell::Int(report.results.len() as i64)),
        ("Final results (N)", Cell::Int(analysis.n as i64)),
        (
            "Left out (still to score or not finished)",
            Cell::Int(analysis.left_out as i64),
        ),
        ("Mean", Cell::Number(test.mean)),
        ("StandardDeviation", number(test.standard_deviation)),
        (alpha_name, number(test.alpha)),
        (
            "StandardErrorOfMeasurement",
            number(test.standard_error_of_measurement),
        ),
    ];
    for (r, (name, value)) in rows.iter().enumerate() {
        sheet.write_string_with_format(r as u32, 0, *name, &f.bold)?;
        write_cell(sheet, r as u32, 1, value, f)?;
    }
    Ok(())
}

fn number(value: Option<f64>) -> Cell {
    value.map_or(Cell::Empty, Cell::Number)
}

fn items_sheet(
    sheet: &mut Worksheet,
    report: &AssessmentReport,
    analysis: &Analysis,
    f: &Formats,
) -> Result<(), XlsxError> {
    sheet.set_name(ITEMS)?;
    let names = [
        "Question",
        "QuestionID",
        "Description",
        "Kind",
        "MaxScore",
        "N",
        "Facility",
        "Discrimination",
        "Flags",
    ];
    for (c, name) in names.iter().enumerate() {
        sheet.write_string_with_format(0, c as u16, *name, &f.bold)?;
    }
    sheet.set_column_width(2, 40)?;
    for (i, item) in analysis.items.iter().enumerate() {
        let r = i as u32 + 1;
        let question = &report.questions[i];
        sheet.write_string(r, 0, format!("Q{}", item.position))?;
        sheet.write_number(r, 1, item.question_id as f64)?;
        write_text(
            sheet,
            r,
            2,
            question.description.as_deref().unwrap_or(""),
            f,
        )?;
        sheet.write_string(r, 3, question.kind.map_or("", |k| k.as_str()))?;
        sheet.write_number(r, 4, f64::from(item.max_score))?;
        sheet.write_number(r, 5, analysis.n as f64)?;
        sheet.write_number_with_format(r, 6, item.statistics.facility, &f.share)?;
        if let Some(d) = item.statistics.discrimination {
            sheet.write_number_with_format(r, 7, d, &f.share)?;
        }
        let flags: Vec<&str> = item.statistics.flags.iter().map(|f| f.as_str()).collect();
        sheet.write_string(r, 8, flags.join(" "))?;
    }
    if !analysis.items.is_empty() {
        let last = analysis.items.len() as u32;
        let mut chart = Chart::new(ChartType::Scatter);
        chart
            .add_series()
            .set_name("Questions")
            .set_categories((ITEMS, 1, 6, last, 6))
            .set_values((ITEMS, 1, 7, last, 7));
        chart.title().set_name("Facility against discrimination");
        chart
            .x_axis()
            .set_name("Facility")
            .set_min(0.0)
            .set_max(1.0);
        chart
            .y_axis()
            .set_name("Discrimination")
            .set_min(-1.0)
            .set_max(1.0);
        chart.legend().set_hidden();
        sheet.insert_chart(last + 2, 0, &chart)?;
    }
    Ok(())
}

fn choices_sheet(sheet: &mut Worksheet, analysis: &Analysis, f: &Formats) -> Result<(), XlsxError> {
    sheet.set_name(CHOICES)?;
    let names = [
        "Question", "Choice", "Text", "Correct", "Chosen", "Top27", "Bottom27",
    ];
    for (c, name) in names.iter().enumerate() {
        sheet.write_string_with_format(0, c as u16, *name, &f.bold)?;
    }
    sheet.set_column_width(2, 40)?;
    let mut r = 1;
    for item in &analysis.items {
        for choice in &item.choices {
            sheet.write_string(r, 0, format!("Q{}", item.position))?;
            sheet.write_number(r, 1, f64::from(choice.order))?;
            write_text(sheet, r, 2, &choice.text, f)?;
            sheet.write_boolean(r, 3, choice.is_correct)?;
            sheet.write_number_with_format(r, 4, choice.chosen, &f.share)?;
            if let (Some(top), Some(bottom)) = (choice.top, choice.bottom) {
                sheet.write_number_with_format(r, 5, top, &f.share)?;
                sheet.write_number_with_format(r, 6, bottom, &f.share)?;
            }
            r += 1;
        }
    }
    Ok(())
}

/// How many final results have each total, 0 to the assessment's maximum.
fn distribution_sheet(
    sheet: &mut Worksheet,
    report: &AssessmentReport,
    f: &Formats,
) -> Result<(), XlsxError> {
    sheet.set_name(DISTRIBUTION)?;
    sheet.write_string_with_format(0, 0, "TotalScore", &f.bold)?;
    sheet.write_string_with_format(0, 1, "Results", &f.bold)?;
    let counts = distribution(report);
    for (total, count) in counts.iter().enumerate() {
        sheet.write_number(total as u32 + 1, 0, total as f64)?;
        sheet.write_number(total as u32 + 1, 1, f64::from(*count))?;
    }
    let last = counts.len() as u32;
    let mut chart = Chart::new(ChartType::Column);
    chart
        .add_series()
        .set_name("Final results")
        .set_categories((DISTRIBUTION, 1, 0, last, 0))
        .set_values((DISTRIBUTION, 1, 1, last, 1));
    chart.title().set_name("Distribution of total scores");
    chart.x_axis().set_name("Total score");
    chart.y_axis().set_name("Results");
    chart.legend().set_hidden();
    sheet.insert_chart(1, 3, &chart)?;
    Ok(())
}
