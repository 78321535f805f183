extension SandboxRegistration {
    /// Every provider emulator, in the order of the embedded default's routing rules (the first rule that
    /// matches a payment wins, so narrower demo routes come first). A new provider adds one line here.
    public static let all: [SandboxRegistration] = [.citcon, .worldlineSips, .worldlineDirect, .antom]

    /// The registration named `name`, if any.
    public static func named(_ name: String) -> SandboxRegistration? {
        all.first { $0.name == name }
    }
}
