#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| scoredesk_fuzz_harness::sheet_page(data));
