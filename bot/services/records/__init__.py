"""Game records: exports, histories, imports, and the audit of stored games."""
