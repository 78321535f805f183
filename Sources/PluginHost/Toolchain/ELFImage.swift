import Foundation

/// What the host reads of a shared object before anything of it runs: the libraries it needs, where
/// it looks for them, the compilers named in its `.comment` section and whether it defines a symbol.
///
/// A bounds-checked reader of 64-bit little-endian ELF files (the only kind this host loads); a
/// truncated or malformed file gives `nil`, never a crash.
struct ELFImage: Sendable, Equatable {
    /// `DT_NEEDED` entries, in order.
    var needed: [String]
    /// `DT_RUNPATH` then `DT_RPATH` directories, unexpanded (`$ORIGIN` kept).
    var searchPaths: [String]
    /// The NUL-separated strings of the `.comment` section (compiler identifications).
    var comments: [String]
    /// Names of the symbols the dynamic symbol table defines (not the undefined ones).
    var definedSymbols: Set<String>

    /// Reads the ELF file `data`, or `nil` when it is not a well-formed 64-bit little-endian ELF file.
    init?(_ data: Data) {
        guard let parsed = Parser(bytes: [UInt8](data)).parse() else { return nil }
        self = parsed
    }

    init(needed: [String], searchPaths: [String], comments: [String], definedSymbols: Set<String>) {
        self.needed = needed
        self.searchPaths = searchPaths
        self.comments = comments
        self.definedSymbols = definedSymbols
    }
}

extension ELFImage {
    /// The reader over the file's bytes.
    private struct Parser {
        let bytes: [UInt8]

        private struct Section {
            var nameOffset: Int
            var type: UInt32
            var offset: Int
            var size: Int
            var link: Int
            var entrySize: Int
            var name = ""
        }

        func parse() -> ELFImage? {
            // "\x7fELF", 64-bit, little-endian.
            guard bytes.count >= 64, bytes[0] == 0x7f, bytes[1] == 0x45, bytes[2] == 0x4c, bytes[3] == 0x46,
                bytes[4] == 2, bytes[5] == 1
            else { return nil }
            guard let sectionsAt = int(64, at: 0x28), let entrySize = int(16, at: 0x3a),
                let count = int(16, at: 0x3c), let namesIndex = int(16, at: 0x3e), entrySize >= 64,
                count > 0, count < 65_536, namesIndex < count, sectionsAt <= bytes.count
            else { return nil }
            var raw: [Section] = []
            for index in 0..<count {
                let base = sectionsAt + index * entrySize
                guard let nameOffset = int(32, at: base), let type = int(32, at: base + 4),
                    let offset = int(64, at: base + 0x18), let size = int(64, at: base + 0x20),
                    let link = int(32, at: base + 0x28), let itemSize = int(64, at: base + 0x38)
                else { return nil }
                raw.append(
                    Section(
                        nameOffset: nameOffset, type: UInt32(type), offset: offset, size: size, link: link,
                        entrySize: itemSize))
            }
            // Only sections inside the file are read, so no sum below can overflow.
            let names = raw[namesIndex]
            guard inFile(names) else { return nil }
            let sections = raw.map { section in
                var named = section
                named.name = string(at: names.offset + section.nameOffset, limit: names.offset + names.size) ?? ""
                return named
            }
            var image = ELFImage(needed: [], searchPaths: [], comments: [], definedSymbols: [])
            for section in sections where inFile(section) {
                switch section.type {
                case 1 where section.name == ".comment":  // SHT_PROGBITS
                    image.comments += strings(in: section)
                case 6:  // SHT_DYNAMIC
                    guard section.link < sections.count, inFile(sections[section.link]) else { return nil }
                    readDynamic(section, strings: sections[section.link], into: &image)
                case 11:  // SHT_DYNSYM
                    guard section.link < sections.count, inFile(sections[section.link]) else { return nil }
                    readSymbols(section, strings: sections[section.link], into: &image)
                default:
                    break
                }
            }
            return image
        }

        private func readDynamic(_ section: Section, strings table: Section, into image: inout ELFImage) {
            var runpath: [String] = []
            var rpath: [String] = []
            var offset = section.offset
            while offset + 16 <= section.offset + section.size, let tag = int(64, at: offset),
                let value = int(64, at: offset + 8)
            {
                if tag == 0 { break }
                let text =
                    value <= bytes.count ? string(at: table.offset + value, limit: table.offset + table.size) : nil
                switch tag {
                case 1: text.map { image.needed.append($0) }  // DT_NEEDED
                case 15: rpath += text.map { $0.split(separator: ":").map(String.init) } ?? []  // DT_RPATH
                case 29: runpath += text.map { $0.split(separator: ":").map(String.init) } ?? []  // DT_RUNPATH
                default: break
                }
                offset += 16
            }
            image.searchPaths = runpath + rpath
        }

        private func readSymbols(_ section: Section, strings table: Section, into image: inout ELFImage) {
            let size = section.entrySize >= 24 ? section.entrySize : 24
            var offset = section.offset
            while offset + 24 <= section.offset + section.size {
                if let name = int(32, at: offset), name <= bytes.count, let sectionIndex = int(16, at: offset + 6),
                    sectionIndex != 0,
                    let text = string(at: table.offset + name, limit: table.offset + table.size), !text.isEmpty
                {
                    image.definedSymbols.insert(text)
                }
                offset += size
            }
        }

        private func inFile(_ section: Section) -> Bool {
            section.type == 8
                || (section.offset <= bytes.count && section.size <= bytes.count - section.offset)
                    && section.nameOffset <= bytes.count
        }

        private func strings(in section: Section) -> [String] {
            guard section.offset >= 0, section.size >= 0, section.offset + section.size <= bytes.count else {
                return []
            }
            return bytes[section.offset..<(section.offset + section.size)].split(separator: 0).map {
                String(decoding: $0, as: UTF8.self)
            }
        }

        private func string(at offset: Int, limit: Int) -> String? {
            guard offset >= 0, offset < min(limit, bytes.count) else { return nil }
            var end = offset
            while end < min(limit, bytes.count), bytes[end] != 0 { end += 1 }
            return String(decoding: bytes[offset..<end], as: UTF8.self)
        }

        /// A little-endian unsigned integer of `bits` at `offset`, or `nil` past the end (or above `Int.max`).
        private func int(_ bits: Int, at offset: Int) -> Int? {
            let width = bits / 8
            guard offset >= 0, offset <= bytes.count - width else { return nil }
            var value: UInt64 = 0
            for index in (0..<width).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
            return value > UInt64(Int.max) ? nil : Int(value)
        }
    }
}
