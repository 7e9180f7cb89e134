//! A document written piece by piece as the client reads it: a feed's head, each
//! entity, its tail. The response body pulls chunks of about [`CHUNK`] bytes, so a
//! page is never held whole as text (only its entities' values, which the store has
//! already bounded), and the first bytes leave while the rest is still to be written.

use std::convert::Infallible;

use axum::body::{Body, Bytes};

/// How much a chunk holds before it is sent: large enough that a page of small
/// entities is a few writes, not one per entity.
pub const CHUNK: usize = 32 * 1024;

/// A document in pieces.
pub trait Pieces: Send + 'static {
    /// Appends the next piece to `out`; `false` once every piece has been written.
    fn write_next(&mut self, out: &mut Vec<u8>) -> bool;
}

/// The chunks of a document, as an iterator of bodies' frames.
pub struct Chunks<P> {
    pieces: P,
    finished: bool,
}

impl<P: Pieces> Chunks<P> {
    pub fn new(pieces: P) -> Self {
        Chunks {
            pieces,
            finished: false,
        }
    }

    /// A response body that writes the document as it is read.
    pub fn into_body(self) -> Body {
        Body::from_stream(futures::stream::iter(self.map(Ok::<_, Infallible>)))
    }
}

impl<P: Pieces> Iterator for Chunks<P> {
    type Item = Bytes;

    fn next(&mut self) -> Option<Bytes> {
        let mut out = Vec::with_capacity(CHUNK + CHUNK / 4);
        while !self.finished && out.len() < CHUNK {
            self.finished = !self.pieces.write_next(&mut out);
        }
        (!out.is_empty()).then(|| Bytes::from(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `count` pieces of `size` bytes each.
    struct Fixed {
        count: usize,
        size: usize,
    }

    impl Pieces for Fixed {
        fn write_next(&mut self, out: &mut Vec<u8>) -> bool {
            if self.count == 0 {
                return false;
            }
            self.count -= 1;
            out.extend(std::iter::repeat_n(b'x', self.size));
            true
        }
    }

    #[test]
    fn pieces_are_gathered_into_chunks_and_none_is_lost() {
        let chunks: Vec<Bytes> = Chunks::new(Fixed {
            count: 1000,
            size: 100,
        })
        .collect();
        assert_eq!(chunks.iter().map(Bytes::len).sum::<usize>(), 100_000);
        assert_eq!(chunks.len(), 100_000usize.div_ceil(CHUNK));
        assert!(chunks[..chunks.len() - 1].iter().all(|c| c.len() >= CHUNK));
    }

    #[test]
    fn a_piece_larger_than_a_chunk_is_one_chunk_and_an_empty_document_none() {
        let chunks: Vec<Bytes> = Chunks::new(Fixed {
            count: 2,
            size: CHUNK * 3,
        })
        .collect();
        assert_eq!(chunks.len(), 2);
        assert_eq!(
            Chunks::new(Fixed { count: 0, size: 1 }).next(),
            None,
            "nothing to send"
        );
    }
}
