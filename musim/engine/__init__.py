"""Running work in chunks: run specs and what they name (a game's options: option; the seats'
policies: seats), chunk planning, local worker threads, atomic Parquet output."""
