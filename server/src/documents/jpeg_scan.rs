//! A baseline JPEG's scan data, Huffman-decoded block by block without computing
//! a pixel: the codes must all be in the scan's tables, every block must end by
//! its 64th coefficient, each restart marker must come where the restart interval
//! puts it, and the last block must end where the data does (within the final
//! byte's padding). Noise decodes to codes that run past the data or stop short
//! of it; a lenient decoder would show it as an image.

use std::fmt::Display;

/// A frame's component: its ID, sampling factors and quantisation table.
#[derive(Debug, Clone, Copy)]
pub struct Component {
    pub id: u8,
    pub horizontal: u8,
    pub vertical: u8,
    pub quantisation: u8,
}

/// A canonical Huffman table as DHT defines it.
#[derive(Debug, Clone, Default)]
pub struct Huffman {
    /// The largest code of each length (1 to 16), -1 for none.
    max_code: [i32; 17],
    /// The first value's index, and the first code, of each length.
    first_index: [i32; 17],
    first_code: [i32; 17],
    values: Vec<u8>,
}

/// The DC and AC tables defined so far (IDs 0 to 3).
#[derive(Debug, Clone, Default)]
pub struct Tables {
    dc: [Option<Huffman>; 4],
    ac: [Option<Huffman>; 4],
}

/// A scan: its components (index into the frame's) with their tables, and the
/// restart interval in force.
#[derive(Debug, Clone)]
pub struct Scan {
    parts: Vec<(usize, Huffman, Huffman)>,
    restart_interval: u16,
}

fn malformed(what: impl Display) -> String {
    format!("has {what}")
}

impl Tables {
    /// Reads a DHT segment (one or more tables).
    pub fn read(&mut self, mut segment: &[u8]) -> Result<(), String> {
        while let [class_and_id, ref rest @ ..] = *segment {
            let counts = rest
                .get(..16)
                .ok_or_else(|| malformed("a Huffman table cut short"))?;
            let total: usize = counts.iter().map(|&c| usize::from(c)).sum();
            let values = rest
                .get(16..16 + total)
                .ok_or_else(|| malformed("a Huffman table cut short"))?;
            let table = Huffman::new(counts, values)?;
            let id = usize::from(class_and_id & 0x0F);
            match (class_and_id >> 4, id) {
                (0, 0..=3) => self.dc[id] = Some(table),
                (1, 0..=3) => self.ac[id] = Some(table),
                _ => return Err(malformed("a Huffman table of no class or ID")),
            }
            segment = &rest[16 + total..];
        }
        Ok(())
    }
}

impl Huffman {
    fn new(counts: &[u8], values: &[u8]) -> Result<Self, String> {
        let mut table = Self {
            max_code: [-1; 17],
            values: values.to_vec(),
            ..Self::default()
        };
        let (mut code, mut index) = (0i32, 0i32);
        for length in 1..=16 {
            let count = i32::from(counts[length - 1]);
            table.first_index[length] = index;
            table.first_code[length] = code;
            if count > 0 {
                code += count;
                index += count;
                table.max_code[length] = code - 1;
                if code > (1 << length) {
                    return Err(malformed("a Huffman table with more codes than bits"));
                }
            }
            code <<= 1;
        }
        Ok(table)
    }

    fn decode(&self, bits: &mut Bits<'_>) -> Result<u8, String> {
        let mut code = 0i32;
        for length in 1..=16 {
            code = (code << 1) | i32::from(bits.bit()?);
            if code <= self.max_code[length] {
                let index = self.first_index[length] + code - self.first_code[length];
                return Ok(self.values[index as usize]);
            }
        }
        Err(malformed("scan data that is no code of its Huffman table"))
    }
}

impl Scan {
    /// Reads an SOS header against the frame's components and the tables so far;
    /// `Err` when it names a component or a table that is not there.
    pub fn read(
        segment: &[u8],
        components: &[Component],
        tables: &Tables,
        restart_interval: u16,
    ) -> Result<Self, String> {
        let [count, ref rest @ ..] = *segment else {
            return Err(malformed("a scan header cut short"));
        };
        let selectors = rest
            .get(..usize::from(count) * 2)
            .ok_or_else(|| malformed("a scan header cut short"))?;
        let mut parts = Vec::new();
        for pair in selectors.chunks_exact(2) {
            let index = components
                .iter()
                .position(|c| c.id == pair[0])
                .ok_or_else(|| malformed("a scan of a component its frame lacks"))?;
            let (dc, ac) = (usize::from(pair[1] >> 4), usize::from(pair[1] & 0x0F));
            let table = |set: &[Option<Huffman>; 4], id: usize| {
                set.get(id)
                    .cloned()
                    .flatten()
                    .ok_or_else(|| malformed("a scan that names a Huffman table never defined"))
            };
            parts.push((index, table(&tables.dc, dc)?, table(&tables.ac, ac)?));
        }
        Ok(Self {
            parts,
            restart_interval,
        })
    }
}

/// The bits of entropy-coded data: stuffed zero bytes skipped, restart markers
/// where the caller expects them.
struct Bits<'a> {
    data: &'a [u8],
    at: usize,
    bit: u8,
}

impl Bits<'_> {
    fn bit(&mut self) -> Result<u8, String> {
        let byte = *self.data.get(self.at).ok_or_else(|| {
            "holds too little image data for its size: its blocks run past the end".to_owned()
        })?;
        if byte == 0xFF && self.data.get(self.at + 1) != Some(&0x00) {
            return Err("has a marker in the middle of a block".into());
        }
        let value = (byte >> (7 - self.bit)) & 1;
        self.bit += 1;
        if self.bit == 8 {
            self.bit = 0;
            self.at += if byte == 0xFF { 2 } else { 1 };
        }
        Ok(value)
    }

    fn skip(&mut self, count: u8) -> Result<(), String> {
        for _ in 0..count {
            self.bit()?;
        }
        Ok(())
    }

    /// The rest of the byte is padding; a restart marker must follow.
    fn restart(&mut self) -> Result<(), String> {
        self.align();
        match self.data.get(self.at..self.at + 2) {
            Some([0xFF, 0xD0..=0xD7]) => {
                self.at += 2;
                Ok(())
            }
            _ => Err("has image data where a restart marker belongs".into()),
        }
    }

    fn align(&mut self) {
        if self.bit > 0 {
            let byte = self.data[self.at];
            self.bit = 0;
            self.at += if byte == 0xFF { 2 } else { 1 };
        }
    }
}

/// Whether `data`, the scan's entropy-coded bytes, holds exactly its blocks.
pub fn account(
    data: &[u8],
    scan: &Scan,
    components: &[Component],
    width: u32,
    height: u32,
) -> Result<(), String> {
    if scan
        .parts
        .iter()
        .any(|(index, ..)| *index >= components.len())
    {
        return Err(malformed("a scan of a component its frame lacks"));
    }
    let h_max = u32::from(components.iter().map(|c| c.horizontal).max().unwrap_or(1));
    let v_max = u32::from(components.iter().map(|c| c.vertical).max().unwrap_or(1));
    // One component alone is coded block by block over its own size; several
    // are interleaved in MCUs of each one's sampling factors.
    let (units, per_unit): (u64, Vec<(usize, u32)>) = match scan.parts.as_slice() {
        [(index, ..)] => {
            let c = components[*index];
            let w = (width * u32::from(c.horizontal)).div_ceil(h_max);
            let h = (height * u32::from(c.vertical)).div_ceil(v_max);
            (
                u64::from(w.div_ceil(8)) * u64::from(h.div_ceil(8)),
                vec![(0, 1)],
            )
        }
        parts => (
            u64::from(width.div_ceil(8 * h_max)) * u64::from(height.div_ceil(8 * v_max)),
            parts
                .iter()
                .enumerate()
                .map(|(part, (index, ..))| {
                    let c = components[*index];
                    (part, u32::from(c.horizontal) * u32::from(c.vertical))
                })
                .collect(),
        ),
    };
    let mut bits = Bits {
        data,
        at: 0,
        bit: 0,
    };
    let interval = u64::from(scan.restart_interval);
    for unit in 0..units {
        if interval > 0 && unit > 0 && unit % interval == 0 {
            bits.restart()?;
        }
        for &(part, blocks) in &per_unit {
            let (_, dc, ac) = &scan.parts[part];
            for _ in 0..blocks {
                block(&mut bits, dc, ac)?;
            }
        }
    }
    bits.align();
    // Some encoders flush one byte more than the padding needs.
    if data.len().saturating_sub(bits.at) > 2 {
        return Err(format!(
            "holds {} bytes of image data after its last block",
            data.len() - bits.at
        ));
    }
    Ok(())
}

/// One 8 × 8 block: a DC difference, then AC coefficients until the end of block.
fn block(bits: &mut Bits<'_>, dc: &Huffman, ac: &Huffman) -> Result<(), String> {
    let size = dc.decode(bits)?;
    if size > 11 {
        return Err(malformed("a DC difference larger than any image holds"));
    }
    bits.skip(size)?;
    let mut k = 1;
    while k < 64 {
        let symbol = ac.decode(bits)?;
        let (run, size) = (symbol >> 4, symbol & 0x0F);
        if size == 0 {
            if run != 15 {
                return Ok(());
            }
            k += 16;
            continue;
        }
        k += usize::from(run);
        if k >= 64 {
            return Err(malformed("a block of more than 64 coefficients"));
        }
        bits.skip(size)?;
        k += 1;
    }
    Ok(())
}
