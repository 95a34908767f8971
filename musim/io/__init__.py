"""Text in and out: game records' shared parsing (records), the JSON batches of `replay` and
`solve` (batch), and the generated column reference docs/formats.md (formats_doc)."""
