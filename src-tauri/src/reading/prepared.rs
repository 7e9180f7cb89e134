//! Scans prepared ahead: while a scorer works on one task, the app decodes and scales
//! the scan of the task that "next" will open, so that it shows at once. A few
//! entries only, the oldest dropped first; answers never change once delivered, so
//! an entry never goes stale.

use std::collections::VecDeque;
use std::sync::Mutex;

use super::answer_image::ShownImage;

/// How many prepared scans are kept.
const CAPACITY: usize = 4;

#[derive(Default)]
pub struct PreparedScans(Mutex<VecDeque<(String, ShownImage)>>);

impl PreparedScans {
    /// The prepared image of the answer at `url` (its `$value`, with the server's
    /// address and area).
    pub fn get(&self, url: &str) -> Option<ShownImage> {
        let entries = self.0.lock().unwrap_or_else(|e| e.into_inner());
        entries
            .iter()
            .find(|(u, _)| u == url)
            .map(|(_, image)| image.clone())
    }

    pub fn insert(&self, url: String, image: ShownImage) {
        let mut entries = self.0.lock().unwrap_or_else(|e| e.into_inner());
        entries.retain(|(u, _)| *u != url);
        if entries.len() == CAPACITY {
            entries.pop_front();
        }
        entries.push_back((url, image));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(width: u32) -> ShownImage {
        ShownImage {
            data_url: String::new(),
            width,
            height: 1,
            full_width: width,
            full_height: 1,
        }
    }

    #[test]
    fn the_oldest_prepared_scan_goes_first_and_a_path_is_kept_once() {
        let scans = PreparedScans::default();
        for n in 0..5 {
            scans.insert(format!("a{n}"), image(n));
        }
        assert!(scans.get("a0").is_none());
        assert_eq!(scans.get("a4").unwrap().width, 4);
        scans.insert("a4".into(), image(40));
        assert_eq!(scans.get("a4").unwrap().width, 40);
        assert_eq!(scans.get("a1").unwrap().width, 1);
    }
}
