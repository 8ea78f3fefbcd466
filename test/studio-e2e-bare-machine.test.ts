// The Studio end-to-end suite again, on a bare machine: Chromium finds no font on the system that can
// draw a Latin letter (test/support/studio.ts, SystemFonts 'none'). It must pass against the same
// goldens as the run with the machine's fonts (DejaVu and Liberation on CI): the Studio draws only
// with the faces it bundles, so what a person sees does not depend on what the machine has.
process.env.IMPRINT_TEST_SYSTEM_FONTS = 'none';
await import('./studio-e2e.test.js');
