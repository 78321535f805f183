/// Card-number checks every emulator makes the way the real platforms do.
enum SandboxCard {
    /// Whether `number` looks like a card number: 12 to 19 ASCII digits passing the Luhn check.
    static func isValidNumber(_ number: String) -> Bool {
        (12...19).contains(number.count) && number.allSatisfy { $0.isASCII && $0.isNumber } && passesLuhn(number)
    }

    /// The Luhn (mod 10) check of a string of digits.
    static func passesLuhn(_ digits: String) -> Bool {
        var sum = 0
        for (index, character) in digits.reversed().enumerated() {
            guard var digit = character.wholeNumberValue else { return false }
            if index % 2 == 1 {
                digit *= 2
                if digit > 9 { digit -= 9 }
            }
            sum += digit
        }
        return sum % 10 == 0
    }
}
