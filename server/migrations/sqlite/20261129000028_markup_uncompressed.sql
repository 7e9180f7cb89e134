-- PostgreSQL's markup is stored uncompressed from this migration on; SQLite never
-- compresses, so there is nothing to change here. The file keeps the two
-- databases' migrations numbered alike.
SELECT 1;
