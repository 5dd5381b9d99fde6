# frozen_string_literal: true

module Shop
  # Persistence reopens Cart to save and restore it.
  class Cart
    def restore(rows)
      rows.each { |row| add(Item.new(row["name"], row["price"])) }
    end
  end
end
