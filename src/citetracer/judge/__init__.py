"""judge stage of the citetracer pipeline (see DESIGN.md)."""
