/*
 * Linked into a fixture plugin with the other runtime stand-in: names the same other toolchain in the
 * plugin's .comment section, as a Swift compiler of that toolchain would.
 */
__asm__(".pushsection .comment\n"
        ".asciz \"clang version 99.0.0 (https://github.com/swiftlang/llvm-project.git 0123456789abcdef0123456789abcdef01234567)\"\n"
        ".popsection");
