"""Running work in chunks: chunk planning, local worker threads, atomic Parquet output."""
