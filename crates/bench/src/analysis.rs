//! Pure analysis functions over results and the catalogue.
