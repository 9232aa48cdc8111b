//! The bench crate inside WebAssembly, as the site runs it: parse real exports and load
//! the seed dataset. Run by `cargo xtask test` through wasm-bindgen-test-runner.
#![cfg(target_arch = "wasm32")]

use bench::{parse_str, Access, Op, Tool};
use wasm_bindgen_test::wasm_bindgen_test;

/// KDiskMark 3.0.0's README example (kdiskmark/02 in the shared corpus).
const KDISKMARK_3: &str = "                        KDiskMark (3.0.0): https://github.com/JonMagon/KDiskMark
                    Flexible I/O Tester (fio-3.30): https://github.com/axboe/fio
--------------------------------------------------------------------------------
* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]
* KB = 1000 bytes, KiB = 1024 bytes

[Read]
Sequential   1 MiB (Q=  8, T= 1):   508.897 MB/s [    497.0 IOPS] < 13840.05 us>
Sequential   1 MiB (Q=  1, T= 1):   438.278 MB/s [    428.0 IOPS] <  2280.14 us>
    Random   4 KiB (Q= 32, T= 1):   354.657 MB/s [  88664.6 IOPS] <   352.37 us>
    Random   4 KiB (Q=  1, T= 1):    44.166 MB/s [  11041.6 IOPS] <    88.48 us>

[Write]
Sequential   1 MiB (Q=  8, T= 1):   460.312 MB/s [    449.5 IOPS] < 15153.11 us>
Sequential   1 MiB (Q=  1, T= 1):   333.085 MB/s [    325.3 IOPS] <  2349.82 us>
    Random   4 KiB (Q= 32, T= 1):   315.170 MB/s [  78792.5 IOPS] <   383.86 us>
    Random   4 KiB (Q=  1, T= 1):    91.040 MB/s [  22760.3 IOPS] <    39.80 us>

Profile: Default
   Test: 1 GiB (x5) [Measure: 5 sec / Interval: 5 sec]
   Date: 2022-08-24 16:10:33
     OS: opensuse-tumbleweed 20220821 [linux 5.19.2-1-default]";

/// A CrystalDiskMark 3.0.3 export as pastebin renders it (cdm3/10): numbered, collapsed.
const CDM3_NUMBERED: &str = "  1. -----------------------------------------------------------------------
  2. CrystalDiskMark 3.0.3 x64 (C) 2007-2013 hiyohiyo
  3. Crystal Dew World : http://crystalmark.info/
  4. -----------------------------------------------------------------------
  5. * MB/s = 1,000,000 byte/s [SATA/300 = 300,000,000 byte/s]
  6.  
  7. Sequential Read : 453.079 MB/s
  8. Sequential Write : 374.536 MB/s
  9. Random Read 512KB : 348.828 MB/s
  10. Random Write 512KB : 397.399 MB/s
  11. Random Read 4KB (QD=1) : 30.274 MB/s [ 7391.2 IOPS]
  12. Random Write 4KB (QD=1) : 112.974 MB/s [ 27581.6 IOPS]
  13. Random Read 4KB (QD=32) : 299.552 MB/s [ 73132.7 IOPS]
  14. Random Write 4KB (QD=32) : 209.673 MB/s [ 51189.7 IOPS]
  15.  
  16. Test : 1000 MB [H: 85.2% (203.3/238.5 GB)] (x5)
  17. Date : 2014/05/16 20:34:15
  18. OS : Windows 7 Home Premium SP1 [6.1 Build 7601] (x64)";

#[wasm_bindgen_test]
fn parses_kdiskmark_in_wasm() {
    let r = &parse_str(KDISKMARK_3, None).expect("parses")[0];
    assert_eq!(r.tool, Tool::KDiskMark);
    assert_eq!(r.metrics.len(), 8);
    let m = &r.metrics[2];
    assert_eq!(
        (m.access, m.block_size, m.queue_depth, m.threads, m.op),
        (Access::Rnd, 4096, 32, 1, Op::Read)
    );
    assert_eq!((m.mbps, m.iops, m.latency_us), (Some(354.657), Some(88664.6), Some(352.37)));
}

#[wasm_bindgen_test]
fn parses_a_mangled_crystaldiskmark_paste_in_wasm() {
    let r = &parse_str(CDM3_NUMBERED, None).expect("parses")[0];
    assert_eq!(r.tool, Tool::CrystalDiskMark);
    assert_eq!(r.tool_version.as_deref(), Some("3.0.3 x64"));
    assert_eq!(r.metrics.len(), 8);
    assert_eq!(r.metrics[6].mbps, Some(299.552));
    assert_eq!(r.metrics[6].queue_depth, 32);
}

#[wasm_bindgen_test]
fn loads_the_seed_dataset_in_wasm() {
    let seeds = bench::seeds::seed_dataset().expect("seed dataset is valid");
    assert!(!seeds.results.is_empty());
    assert!(seeds.measurement_count() > 0);
}
