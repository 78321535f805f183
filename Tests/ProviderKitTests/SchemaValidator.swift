import Foundation
import ProviderKit

/// ProviderKit's schema checker over the schema files of this checkout, strict: an object may not carry
/// a key its schema does not list, so a value with a key the schema forgot is an error.
struct SchemaValidator {
    /// The directory of the schema files.
    let directory: URL

    /// The problems of `value` against the schema file `name` (relative to ``directory``); empty when valid.
    func problems(_ value: JSONValue, against name: String) throws -> [String] {
        try validator.problems(value, against: name)
    }

    /// Encodes `value` with the ABI's encoder and checks it.
    func problems<T: Encodable>(encoding value: T, against name: String) throws -> [String] {
        try validator.problems(encoding: value, against: name)
    }

    private var validator: ABISchemaValidator {
        let directory = self.directory
        return ABISchemaValidator(strict: true) { try Data(contentsOf: directory.appendingPathComponent($0)) }
    }
}
