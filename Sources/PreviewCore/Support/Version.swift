/// The release of previewd, previewctl and previewweb, as each prints it
/// (`previewd --version`, `previewctl version`, `previewweb --version`).
///
/// The one place it is set: debian/changelog's top entry and the man pages'
/// `.TH` lines say the same, which debian/rules (on every package build)
/// and `Tests/Integration/install/test_manpages.py` check.
public let previewVersion = "0.1.0"
