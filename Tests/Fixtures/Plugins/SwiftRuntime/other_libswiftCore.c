/*
 * Stands in for the Swift runtime of another toolchain: a shared object named libswiftCore.so whose
 * .comment section names another swiftlang/llvm-project commit, as a real toolchain's runtime does.
 * Built with -Wl,-soname,libswiftCore.so into a directory a plugin's RUNPATH names.
 */
__asm__(".pushsection .comment\n"
        ".asciz \"clang version 99.0.0 (https://github.com/swiftlang/llvm-project.git 0123456789abcdef0123456789abcdef01234567)\"\n"
        ".popsection");

int other_swift_runtime_marker(void) { return 99; }
