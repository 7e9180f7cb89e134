//! Signed links (contract, "Security"): a snapshot's printable page (and a print
//! batch's answer sheets, our extension) is opened by a browser or a print dialog
//! that has no credentials, so the link is the credential. It names the customer
//! area, the snapshot or batch, the variant and an expiry, signed with
//! HMAC-SHA256 under the server's key (kept in the database, so that every process
//! behind a load balancer accepts the links of the others). Changing any part of it
//! breaks the signature; an expired link is refused even when intact.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// Which page a link opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrintVariant {
    /// The paper as participants get it.
    Questions,
    /// The same with the correct choices marked, for coordinators.
    Answers,
    /// A print batch's personal answer sheets (docs/paper-sheets.md).
    Sheets,
    /// A group's class list (docs/rosters.md).
    ClassList,
    /// A result's marked script (docs/marking-quality.md).
    MarkedScript,
}

impl PrintVariant {
    pub fn as_str(self) -> &'static str {
        match self {
            PrintVariant::Questions => "questions",
            PrintVariant::Answers => "answers",
            PrintVariant::Sheets => "sheets",
            PrintVariant::ClassList => "class-list",
            PrintVariant::MarkedScript => "marked-script",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [
            PrintVariant::Questions,
            PrintVariant::Answers,
            PrintVariant::Sheets,
            PrintVariant::ClassList,
            PrintVariant::MarkedScript,
        ]
        .into_iter()
        .find(|variant| variant.as_str() == text)
    }
}

/// What a link grants: one variant of one snapshot (or, for sheets, one print
/// batch) of one area, until `expires_at` (milliseconds since the epoch). The
/// variant is signed with the ID, so a batch's link opens no snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrintLink {
    pub area: i32,
    /// The snapshot's ID, the print batch's for [`PrintVariant::Sheets`], the
    /// group's for [`PrintVariant::ClassList`].
    pub target: i32,
    pub variant: PrintVariant,
    pub expires_at: i64,
}

/// Why a link does not open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkRefusal {
    /// The signature is not this link's: some part of it was changed.
    Altered,
    /// Intact, but past its expiry.
    Expired { at: i64 },
}

impl PrintLink {
    /// The link's signature under `key`, URL-safe.
    pub fn signature(&self, key: &[u8]) -> String {
        URL_SAFE_NO_PAD.encode(self.mac(key).finalize().into_bytes())
    }

    /// Whether `signature` is this link's under `key`, and the link still valid at
    /// `now`. The comparison takes the same time whatever the signature.
    pub fn verify(&self, key: &[u8], signature: &str, now: i64) -> Result<(), LinkRefusal> {
        let sent = URL_SAFE_NO_PAD
            .decode(signature)
            .map_err(|_| LinkRefusal::Altered)?;
        self.mac(key)
            .verify_slice(&sent)
            .map_err(|_| LinkRefusal::Altered)?;
        if now > self.expires_at {
            return Err(LinkRefusal::Expired {
                at: self.expires_at,
            });
        }
        Ok(())
    }

    fn mac(&self, key: &[u8]) -> Hmac<Sha256> {
        // HMAC takes a key of any length.
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key)
            .unwrap_or_else(|_| unreachable!("HMAC accepts every key length"));
        mac.update(
            format!(
                "scoredesk-print\n{}\n{}\n{}\n{}",
                self.area,
                self.target,
                self.variant.as_str(),
                self.expires_at
            )
            .as_bytes(),
        );
        mac
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &[u8] = b"a key of the server";

    fn link() -> PrintLink {
        PrintLink {
            area: 1,
            target: 7,
            variant: PrintVariant::Questions,
            expires_at: 1_000,
        }
    }

    #[test]
    fn a_link_opens_until_it_expires() {
        let signature = link().signature(KEY);
        assert_eq!(link().verify(KEY, &signature, 999), Ok(()));
        assert_eq!(link().verify(KEY, &signature, 1_000), Ok(()));
        assert_eq!(
            link().verify(KEY, &signature, 1_001),
            Err(LinkRefusal::Expired { at: 1_000 })
        );
    }

    #[test]
    fn changing_any_part_breaks_the_signature() {
        let signature = link().signature(KEY);
        let changed = [
            PrintLink { area: 2, ..link() },
            PrintLink {
                target: 8,
                ..link()
            },
            PrintLink {
                variant: PrintVariant::Answers,
                ..link()
            },
            PrintLink {
                expires_at: 9_999_999,
                ..link()
            },
        ];
        for other in changed {
            assert_eq!(
                other.verify(KEY, &signature, 0),
                Err(LinkRefusal::Altered),
                "{other:?}"
            );
        }
        assert_eq!(
            link().verify(b"another key", &signature, 0),
            Err(LinkRefusal::Altered)
        );
        assert_eq!(
            link().verify(KEY, "not base64!", 0),
            Err(LinkRefusal::Altered)
        );
        assert_eq!(link().verify(KEY, "", 0), Err(LinkRefusal::Altered));
    }
}
