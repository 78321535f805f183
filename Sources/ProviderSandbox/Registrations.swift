extension SandboxRegistration {
    /// Every provider emulator: one per provider folder (`<Provider>/<Provider>Registration.swift`), listed
    /// at build time, in folder-name order. Nothing here names a provider; the embedded default orders its
    /// demo routing rules by how narrow each is (``SandboxDemo/Route/specificity``).
    public static let all: [SandboxRegistration] = discovered

    /// The registration named `name`, if any.
    public static func named(_ name: String) -> SandboxRegistration? {
        all.first { $0.name == name }
    }
}
