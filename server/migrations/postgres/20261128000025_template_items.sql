-- Template items (docs/content.md, "Template items"): a question drawn afresh for
-- each snapshot keeps its template (the QTI item as XML, its images inlined);
-- each snapshot's draw is a question of its own, an instance, that names the
-- template question it was drawn from, so that reports count its answers as the
-- template's.
ALTER TABLE questions ADD COLUMN template_xml TEXT;
ALTER TABLE questions ADD COLUMN instance_of BIGINT;
CREATE INDEX questions_instances ON questions (customer_id, instance_of);
