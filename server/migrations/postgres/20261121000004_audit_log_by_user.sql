-- ResultsAuditLog is filterable by RequestUserID.
CREATE INDEX results_audit_log_by_user ON results_audit_log (customer_id, request_user_id);
