//! Documents of our own design that the service serves: the snapshot XML
//! (docs/snapshot-xml.md). Written from domain types with real libraries, never by
//! pasting strings; no HTTP and no SQL here.

pub mod snapshot_xml;
