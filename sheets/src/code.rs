//! What a sheet's code (a QR code) says: `SDSHEET4/<area>/<batch>/<attempt>/<page>/<pages>`.
//! Plain text, so that any reader can be checked by eye; the server decides whether
//! the attempt is one of that area's batch (a page of another is refused). The
//! digit after `SDSHEET` is the layout's edition: a page printed before the layout
//! changed is read against the layout it was printed with (`layout::printed_in`).

/// The code of one page of one attempt's sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SheetCode {
    /// The layout's edition the page was printed with ([`EDITION`] today).
    pub edition: u8,
    pub area: i32,
    pub batch: i32,
    pub attempt: i32,
    /// 1, 2, …
    pub page: u16,
    /// How many pages the attempt's sheet has.
    pub pages: u16,
}

const PREFIX: &str = "SDSHEET";
/// The layout's edition sheets are printed with: 1 had no boxes for short
/// answers (text entries were not on the sheet); 2 has them; 3 asks a number
/// (a numeric entry) as rows of bubbles instead of a box; 4 prints a point
/// question's picture to mark places on (before, it was not on the sheet).
pub const EDITION: u8 = 4;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    #[error("not a ScoreDesk answer sheet's code")]
    Foreign,
    #[error("the code's {0} is not a number in range")]
    Field(&'static str),
    #[error("the code names page {page} of {pages}")]
    Page { page: u16, pages: u16 },
    #[error("the sheet was printed by a newer ScoreDesk (layout edition {0}); read it with that version")]
    Edition(u8),
}

impl SheetCode {
    pub fn encode(&self) -> String {
        format!(
            "{PREFIX}{}/{}/{}/{}/{}/{}",
            self.edition, self.area, self.batch, self.attempt, self.page, self.pages
        )
    }

    pub fn decode(text: &str) -> Result<Self, CodeError> {
        let mut parts = text.trim().split('/');
        let edition: u8 = parts
            .next()
            .and_then(|head| head.strip_prefix(PREFIX))
            .filter(|digits| digits.len() == 1)
            .and_then(|digit| digit.parse().ok())
            .filter(|edition| *edition >= 1)
            .ok_or(CodeError::Foreign)?;
        if edition > EDITION {
            return Err(CodeError::Edition(edition));
        }
        let mut field = |name: &'static str| -> Result<i64, CodeError> {
            parts
                .next()
                .and_then(|part| part.parse::<i64>().ok())
                .filter(|n| *n > 0)
                .ok_or(CodeError::Field(name))
        };
        let area = field("area")?;
        let batch = field("batch")?;
        let attempt = field("attempt")?;
        let page = field("page")?;
        let pages = field("pages")?;
        if parts.next().is_some() {
            return Err(CodeError::Foreign);
        }
        let int = |n: i64, name| i32::try_from(n).map_err(|_| CodeError::Field(name));
        let short = |n: i64, name| u16::try_from(n).map_err(|_| CodeError::Field(name));
        let code = SheetCode {
            edition,
            area: int(area, "area")?,
            batch: int(batch, "batch")?,
            attempt: int(attempt, "attempt")?,
            page: short(page, "page")?,
            pages: short(pages, "pages")?,
        };
        if code.page > code.pages {
            return Err(CodeError::Page {
                page: code.page,
                pages: code.pages,
            });
        }
        Ok(code)
    }

    /// Whether the page belongs to print batch `batch` of customer area `area`: a
    /// page of another is refused, saying whose it is.
    pub fn check_batch(&self, area: i32, batch: i32) -> Result<(), ForeignPage> {
        if self.area != area {
            return Err(ForeignPage::Area {
                area: self.area,
                expected: area,
            });
        }
        if self.batch != batch {
            return Err(ForeignPage::Batch {
                batch: self.batch,
                expected: batch,
            });
        }
        Ok(())
    }
}

/// A page of another area's or another batch's sheets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ForeignPage {
    #[error("the page belongs to another customer area's sheets, not to customer area {expected}")]
    Area { area: i32, expected: i32 },
    #[error("the page belongs to print batch {batch}, not to print batch {expected}")]
    Batch { batch: i32, expected: i32 },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_reads_back_as_written() {
        let code = SheetCode {
            edition: EDITION,
            area: 1,
            batch: 42,
            attempt: 9001,
            page: 2,
            pages: 3,
        };
        assert_eq!(code.encode(), "SDSHEET4/1/42/9001/2/3");
        assert_eq!(SheetCode::decode(&code.encode()), Ok(code));
        // A page printed with the first layout says so.
        assert_eq!(
            SheetCode::decode("SDSHEET1/1/42/9001/2/3").map(|c| c.edition),
            Ok(1)
        );
    }

    #[test]
    fn a_page_of_another_area_or_batch_is_refused() {
        let code = SheetCode::decode("SDSHEET1/1/42/9001/2/3").expect("a code");
        assert_eq!(code.check_batch(1, 42), Ok(()));
        assert_eq!(
            code.check_batch(2, 42),
            Err(ForeignPage::Area {
                area: 1,
                expected: 2
            })
        );
        assert_eq!(
            code.check_batch(1, 41).map_err(|e| e.to_string()),
            Err("the page belongs to print batch 42, not to print batch 41".into())
        );
    }

    #[test]
    fn other_codes_are_refused_saying_why() {
        assert_eq!(
            SheetCode::decode("https://example.com"),
            Err(CodeError::Foreign)
        );
        assert_eq!(
            SheetCode::decode("SDSHEET1/1/x/3/1/1"),
            Err(CodeError::Field("batch"))
        );
        assert_eq!(
            SheetCode::decode("SDSHEET1/1/2/3/4/3"),
            Err(CodeError::Page { page: 4, pages: 3 })
        );
        assert_eq!(
            SheetCode::decode("SDSHEET1/1/2/3/1/1/7"),
            Err(CodeError::Foreign)
        );
        assert_eq!(
            SheetCode::decode("SDSHEET1/1/2/99999999999/1/1"),
            Err(CodeError::Field("attempt"))
        );
        assert_eq!(
            SheetCode::decode("SDSHEET9/1/2/3/1/1"),
            Err(CodeError::Edition(9))
        );
        for foreign in [
            "SDSHEET/1/2/3/1/1",
            "SDSHEET0/1/2/3/1/1",
            "SDSHEET12/1/2/3/1/1",
        ] {
            assert_eq!(
                SheetCode::decode(foreign),
                Err(CodeError::Foreign),
                "{foreign}"
            );
        }
    }
}
