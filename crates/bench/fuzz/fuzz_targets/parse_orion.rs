#![no_main]
//! Any bytes through the orion parser: it must return, never panic or hang, and what it
//! returns must pass `bench::parse::check_well_formed`.
#[allow(unused_imports)]
use bench::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(results) = bench::parse_bytes(data, Some(Format::Orion)) {
        bench::parse::check_well_formed(&results).unwrap();
    }
});
