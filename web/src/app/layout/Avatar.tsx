import { initialOf, profilePictureUrl, type User } from '../../auth/user';

type Props = { user: User | null; size?: number };

/** The profile picture, else the upper-case first letter of the first name in a circle, else 'U'. */
export function Avatar({ user, size = 32 }: Props) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.45) };
  if (user?.profilePicture) {
    return <img className="kosh-avatar" style={style} src={profilePictureUrl(user.profilePicture)} alt="" />;
  }
  return (
    <span className="kosh-avatar kosh-avatar-initial" style={style} aria-hidden="true">
      {initialOf(user)}
    </span>
  );
}
