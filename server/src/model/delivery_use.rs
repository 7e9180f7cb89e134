//! When an assessment, a snapshot or a print batch may be deleted (issue 33: a
//! snapshot taken by mistake could be neither renamed nor removed). Only what
//! nothing uses goes: an assessment with snapshots, attempts, results or scoring
//! tasks, a snapshot with a print batch or an attempt, or a batch with attempts
//! printed for it or an upload that named it, is delivery history and stays; it
//! can be renamed.

/// What refers to a snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SnapshotUse {
    pub batches: i64,
    pub attempts: i64,
}

/// What refers to a print batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchUse {
    /// Its group's members' attempts at its snapshot: the sheets it prints.
    pub attempts: i64,
    /// Whether an upload named the batch (its `LastUploadedDateTime` is set).
    pub uploaded: bool,
}

/// What refers to an assessment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AssessmentUse {
    pub snapshots: i64,
    pub attempts: i64,
    pub results: i64,
    pub tasks: i64,
}

/// Why assessment `id` cannot be deleted, or `None` when nothing uses it.
pub fn assessment_kept_by(id: i64, uses: AssessmentUse) -> Option<String> {
    let what: Vec<String> = [
        (uses.snapshots, "snapshot", "snapshots"),
        (uses.attempts, "attempt", "attempts"),
        (uses.results, "result", "results"),
        (uses.tasks, "scoring task", "scoring tasks"),
    ]
    .into_iter()
    .filter(|(n, _, _)| *n > 0)
    .map(|(n, one, many)| counted(n, one, many))
    .collect();
    (!what.is_empty()).then(|| {
        format!(
            "Assessment {id} is in use ({}), so it cannot be deleted; it can be renamed",
            what.join(", ")
        )
    })
}

/// Why snapshot `id` cannot be deleted, or `None` when nothing uses it.
pub fn snapshot_kept_by(id: i32, uses: SnapshotUse) -> Option<String> {
    let mut what = Vec::new();
    if uses.batches > 0 {
        what.push(counted(uses.batches, "print batch", "print batches"));
    }
    if uses.attempts > 0 {
        what.push(counted(uses.attempts, "attempt", "attempts"));
    }
    (!what.is_empty()).then(|| {
        format!(
            "AssessmentSnapshot {id} is in use ({}), so it cannot be deleted; it can be renamed",
            what.join(", ")
        )
    })
}

/// Why print batch `id` cannot be deleted, or `None` when nothing uses it.
pub fn batch_kept_by(id: i32, uses: BatchUse) -> Option<String> {
    let mut what = Vec::new();
    if uses.attempts > 0 {
        what.push(format!(
            "{} of its group at its snapshot",
            counted(uses.attempts, "attempt", "attempts")
        ));
    }
    if uses.uploaded {
        what.push("answers uploaded for it".to_owned());
    }
    (!what.is_empty()).then(|| {
        format!(
            "PrintBatch {id} is in use ({}), so it cannot be deleted; it can be renamed",
            what.join(", ")
        )
    })
}

fn counted(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_unused_snapshot_may_go() {
        let unused = SnapshotUse {
            batches: 0,
            attempts: 0,
        };
        assert_eq!(snapshot_kept_by(7, unused), None);
        let used = SnapshotUse {
            batches: 1,
            attempts: 31,
        };
        assert_eq!(
            snapshot_kept_by(7, used).unwrap(),
            "AssessmentSnapshot 7 is in use (1 print batch, 31 attempts), so it cannot be \
             deleted; it can be renamed"
        );
        let attempted = SnapshotUse {
            batches: 0,
            attempts: 1,
        };
        assert!(snapshot_kept_by(7, attempted)
            .unwrap()
            .contains("(1 attempt)"));
    }

    #[test]
    fn an_assessment_with_any_delivery_stays() {
        let unused = AssessmentUse {
            snapshots: 0,
            attempts: 0,
            results: 0,
            tasks: 0,
        };
        assert_eq!(assessment_kept_by(9, unused), None);
        let delivered = AssessmentUse {
            snapshots: 2,
            attempts: 0,
            results: 1,
            tasks: 3,
        };
        assert_eq!(
            assessment_kept_by(9, delivered).unwrap(),
            "Assessment 9 is in use (2 snapshots, 1 result, 3 scoring tasks), so it cannot be \
             deleted; it can be renamed"
        );
        let attempted = AssessmentUse {
            attempts: 1,
            ..unused
        };
        assert!(assessment_kept_by(9, attempted)
            .unwrap()
            .contains("(1 attempt)"));
    }

    #[test]
    fn a_batch_with_attempts_or_uploads_stays() {
        assert_eq!(
            batch_kept_by(
                3,
                BatchUse {
                    attempts: 0,
                    uploaded: false
                }
            ),
            None
        );
        let printed = batch_kept_by(
            3,
            BatchUse {
                attempts: 2,
                uploaded: false,
            },
        )
        .unwrap();
        assert!(printed.contains("2 attempts of its group"), "{printed}");
        let uploaded = batch_kept_by(
            3,
            BatchUse {
                attempts: 0,
                uploaded: true,
            },
        )
        .unwrap();
        assert!(uploaded.contains("answers uploaded for it"), "{uploaded}");
    }
}
