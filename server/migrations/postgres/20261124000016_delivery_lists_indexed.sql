-- The coordinator's screens list a snapshot's print batches and a print batch's
-- attempts, which are its snapshot's (`PrintBatches?$filter=SnapshotID eq N`,
-- `Attempts?$filter=AssessmentSnapshotID eq N`, our extension: docs/odata.md). One
-- range of each index, in ID order, per snapshot.
CREATE INDEX print_batches_by_snapshot ON print_batches (customer_id, snapshot_id, id);
CREATE INDEX attempts_by_snapshot ON attempts (customer_id, snapshot_id, id);
