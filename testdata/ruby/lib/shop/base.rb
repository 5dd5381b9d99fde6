# frozen_string_literal: true

module Shop
  # Base is the parent of the shop's models.
  class Base
    attr_reader :id

    def initialize(id)
      @id = id
    end

    # Log a message to the shop's audit trail.
    def log(message)
      Shop.audit.record("#{self.class}: #{message}")
    end

    def to_h
      { "id" => id }
    end
  end
end
