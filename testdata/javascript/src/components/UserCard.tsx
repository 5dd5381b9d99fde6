import React, { useState } from "react";
import type { User } from "@/models";

type AvatarProps = { user: User; onClick?: () => void };

export function Avatar({ user, onClick }: AvatarProps) {
  return <img alt={user.displayName()} onClick={onClick} />;
}

function track(event: string) {
  return event.length;
}

export default function ({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  const toggle = () => setOpen(!open);
  return (
    <div className="card">
      <Avatar user={user} onClick={toggle} />
      <button onClick={track}>{user.displayName()}</button>
    </div>
  );
}
